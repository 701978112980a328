import { parseArgs } from 'node:util';
import { companyIdsOption, useTargetTable } from './target-table.js';

/**
 * `npm run backfill:call-days [-- --from YYYY-MM-DD] [--company <id>]`: counts the calls made
 * before the per-day call counts existed (shared/calls/call-day-backfill.ts), so `GET /api/v1/calls`
 * lists and counts them. Locally it works on the running `npm start` (DATA_DIR/runtime.json);
 * against a deployment set TABLE_NAME (and AWS_REGION, credentials) to the stack's table.
 */
const { values } = parseArgs({ options: { from: { type: 'string' }, company: { type: 'string', multiple: true } } });
useTargetTable();
const fromMs = values.from === undefined ? undefined : Date.parse(`${values.from}T00:00:00Z`);
if (fromMs !== undefined && Number.isNaN(fromMs)) {
  console.error(`--from ${values.from} is not a date (YYYY-MM-DD)`);
  process.exit(1);
}
const companyIds = companyIdsOption(values.company);

const { backfillCallDayCounts } = await import('../calls/call-day-backfill.js');
const result = await backfillCallDayCounts(new Date(), { companyIds, fromMs });
console.log(`Counted ${result.calls} call(s) on ${result.days} day(s) of ${result.companies} compan${result.companies === 1 ? 'y' : 'ies'}. Run again once today (UTC) is over: only finished days are counted.`);
