import { parseArgs } from 'node:util';
import { companyIdsOption, useTargetTable } from './target-table.js';

/**
 * `npm run backfill:number-index [-- --company <id>]`: gives tracking numbers stored before the
 * number index existed their index entries (shared/numbers/number-index-backfill.ts), so the
 * inbound post finds them in their offer's and pool's numbers. Locally it works on the running
 * `npm start` (DATA_DIR/runtime.json); against a deployment set TABLE_NAME (and AWS_REGION,
 * credentials) to the stack's table. Safe to run again.
 */
const { values } = parseArgs({ options: { company: { type: 'string', multiple: true } } });
useTargetTable();
const companyIds = companyIdsOption(values.company);

const { backfillNumberIndex } = await import('../numbers/number-index-backfill.js');
const result = await backfillNumberIndex({ companyIds });
console.log(
  `Indexed ${result.updated} of ${result.numbers} tracking number(s) of ${result.companies} compan${result.companies === 1 ? 'y' : 'ies'}` +
    (result.skipped ? ` (${result.skipped} changed meanwhile, indexed by that change)` : '') +
    '. The others were indexed already.',
);
