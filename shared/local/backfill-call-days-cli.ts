import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';

/**
 * `npm run backfill:call-days [-- --from YYYY-MM-DD] [--company <id>]`: counts the calls made
 * before the per-day call counts existed (shared/calls/call-day-backfill.ts), so `GET /api/v1/calls`
 * lists and counts them. Locally it works on the running `npm start` (DATA_DIR/runtime.json);
 * against a deployment set TABLE_NAME (and AWS_REGION, credentials) to the stack's table.
 */
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
const { values } = parseArgs({ options: { from: { type: 'string' }, company: { type: 'string', multiple: true } } });
if (!process.env.TABLE_NAME) {
  const runtimeFile = join(resolve(process.env.DATA_DIR ?? '.data'), 'runtime.json');
  if (!existsSync(runtimeFile)) {
    console.error(`No running service found (${runtimeFile} is missing): start it with npm start, or set TABLE_NAME for a deployed table.`);
    process.exit(1);
  }
  const runtime = JSON.parse(readFileSync(runtimeFile, 'utf8')) as { dynamodb_endpoint: string; table_name: string };
  process.env.DYNAMODB_ENDPOINT = runtime.dynamodb_endpoint;
  process.env.TABLE_NAME = runtime.table_name;
}
const fromMs = values.from === undefined ? undefined : Date.parse(`${values.from}T00:00:00Z`);
if (fromMs !== undefined && Number.isNaN(fromMs)) {
  console.error(`--from ${values.from} is not a date (YYYY-MM-DD)`);
  process.exit(1);
}
const companyIds = values.company?.map(Number);
if (companyIds?.some((id) => !Number.isSafeInteger(id) || id < 1)) {
  console.error('--company takes a company id');
  process.exit(1);
}

const { backfillCallDayCounts } = await import('../calls/call-day-backfill.js');
const result = await backfillCallDayCounts(new Date(), { companyIds, fromMs });
console.log(`Counted ${result.calls} call(s) on ${result.days} day(s) of ${result.companies} compan${result.companies === 1 ? 'y' : 'ies'}. Run again once today (UTC) is over: only finished days are counted.`);
