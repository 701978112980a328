import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { startDynamoDbLocal, type RunningDynamoDbLocal } from './dynamodb-local.js';

/**
 * `npm run keys -- create --company <name> [--email <user e-mail> [--admin]]`
 *
 * Mints an API key pair for a company (created if new) and prints the private key once; with
 * --email it also creates a user and prints that user's auth_token once: a member, who may do
 * only what their teams allow (docs/permissions.md), or with --admin an admin, who may do everything. It writes to the
 * running `npm start` (found through DATA_DIR/runtime.json), else to DATA_DIR directly, or, with
 * TABLE_NAME set and no DYNAMODB_ENDPOINT, to that table in AWS using the usual AWS credentials.
 */
const USAGE = 'usage: npm run keys -- create --company <name> [--email <user e-mail> [--admin]]';

const { positionals, values } = parseArgs({
  allowPositionals: true,
  options: { company: { type: 'string' }, email: { type: 'string' }, admin: { type: 'boolean' }, help: { type: 'boolean', short: 'h' } },
});

if (values.help || positionals[0] !== 'create' || !values.company) {
  console.error(USAGE);
  process.exit(values.help ? 0 : 2);
}

async function endpointAnswers(endpoint: string): Promise<boolean> {
  try {
    await fetch(endpoint, { signal: AbortSignal.timeout(2000) });
    return true;
  } catch {
    return false;
  }
}

let emulator: RunningDynamoDbLocal | undefined;
const awsMode = Boolean(process.env.TABLE_NAME) && !process.env.DYNAMODB_ENDPOINT;
if (!awsMode && !process.env.DYNAMODB_ENDPOINT) {
  const dataDir = resolve(process.env.DATA_DIR ?? '.data');
  const runtimeFile = join(dataDir, 'runtime.json');
  const runtime = existsSync(runtimeFile)
    ? (JSON.parse(readFileSync(runtimeFile, 'utf8')) as { dynamodb_endpoint: string; table_name: string })
    : undefined;
  if (runtime && (await endpointAnswers(runtime.dynamodb_endpoint))) {
    process.env.DYNAMODB_ENDPOINT = runtime.dynamodb_endpoint;
    process.env.TABLE_NAME = runtime.table_name;
  } else {
    emulator = await startDynamoDbLocal({ dataDir: join(dataDir, 'dynamodb') });
    process.env.DYNAMODB_ENDPOINT = emulator.endpoint;
    process.env.TABLE_NAME ??= 'call-tracking-local';
  }
}

try {
  // Loaded after the configuration above is settled.
  const { db, tableName } = await import('../db/client.js');
  const { addApiKey, addUser, ensureCompany } = await import('../db/companies.js');
  if (emulator) {
    const { ensureTable } = await import('./table-setup.js');
    await ensureTable(db, tableName);
  }
  const company = await ensureCompany(values.company);
  const pair = await addApiKey(company.id);
  console.log(`company: ${company.name} (id ${company.id})`);
  console.log(`public key:  ${pair.publicKey}`);
  console.log(`private key: ${pair.privateKey}`);
  if (values.email) {
    const admin = values.admin === true;
    const user = await addUser(company.id, values.email, { admin });
    console.log(`user: ${values.email} (id ${user.userId}, ${admin ? 'admin' : 'member: may do what their teams allow'})`);
    console.log(`auth_token:  ${user.authToken}`);
  }
  console.log('The private key and auth_token are stored only as hashes: keep them now, they cannot be shown again.');
} finally {
  await emulator?.stop();
}
