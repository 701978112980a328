import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

/**
 * The table a data migration CLI (`npm run backfill:*`) works on: TABLE_NAME when set (a
 * deployed table, with AWS_REGION and the usual credentials), else the running `npm start`
 * (DATA_DIR/runtime.json). Sets DYNAMODB_ENDPOINT / TABLE_NAME before the client is loaded; exits
 * with a message when neither is there.
 */
export function useTargetTable(): void {
  if (process.env.TABLE_NAME) return;
  const runtimeFile = join(resolve(process.env.DATA_DIR ?? '.data'), 'runtime.json');
  if (!existsSync(runtimeFile)) {
    console.error(`No running service found (${runtimeFile} is missing): start it with npm start, or set TABLE_NAME for a deployed table.`);
    process.exit(1);
  }
  const runtime = JSON.parse(readFileSync(runtimeFile, 'utf8')) as { dynamodb_endpoint: string; table_name: string };
  process.env.DYNAMODB_ENDPOINT = runtime.dynamodb_endpoint;
  process.env.TABLE_NAME = runtime.table_name;
}

/** The `--company` ids of a migration CLI, or exits when one is not a company id. */
export function companyIdsOption(values: readonly string[] | undefined): number[] | undefined {
  const ids = values?.map(Number);
  if (ids?.some((id) => !Number.isSafeInteger(id) || id < 1)) {
    console.error('--company takes a company id');
    process.exit(1);
  }
  return ids;
}
