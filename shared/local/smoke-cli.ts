import { parseArgs } from 'node:util';
import { savedCarrierToken } from './carrier-token.js';
import { formatSmokeResult, redactSecrets, runSmokeSteps, smokeFailed } from '../smoke/runner.js';
import { deleteSmokeRecords, smokeContext, smokeSteps } from '../smoke/steps.js';

/**
 * `npm run smoke -- --api-url <ApiUrl> --keys <public:private> [--carrier-token-secret <name> |
 *   --carrier-token <token>] [--receiver-url <url>] [--buy-number]`
 * Drives a running deployment (AWS, or `npm start`) end to end through its public routes and
 * prints one PASS/FAIL/SKIP line per step with its time; exits 1 when a step failed. Records are
 * named smoke-<time> and deleted at the end, also after a failure. docs/operations.md, "After
 * every deploy, run the smoke test".
 */
const usage =
  'usage: npm run smoke -- --api-url <ApiUrl> --keys <public:private> [--carrier-token-secret <name> | --carrier-token <token>] [--receiver-url <url>] [--buy-number] [--wait-seconds 60]';
const { values } = parseArgs({
  options: {
    'api-url': { type: 'string' },
    keys: { type: 'string' },
    'carrier-token-secret': { type: 'string' },
    'carrier-token': { type: 'string' },
    'receiver-url': { type: 'string' },
    'buy-number': { type: 'boolean', default: false },
    'wait-seconds': { type: 'string' },
    help: { type: 'boolean', short: 'h' },
  },
});

if (values.help || !values['api-url'] || !values.keys?.includes(':')) {
  console.error(usage);
  process.exit(values.help ? 0 : 2);
}
if (values['carrier-token-secret'] && values['carrier-token']) {
  console.error('Give --carrier-token-secret or --carrier-token, not both.');
  process.exit(2);
}

/** The carrier's token: given, read from Secrets Manager (the stack's twilioAuthTokenSecret), or, for a local service, the one `npm start` saved. */
async function carrierToken(): Promise<string | undefined> {
  if (values['carrier-token']) return values['carrier-token'];
  const secretId = values['carrier-token-secret'];
  if (secretId) {
    const { SecretsManagerClient, GetSecretValueCommand } = await import('@aws-sdk/client-secrets-manager');
    const client = new SecretsManagerClient({});
    try {
      return (await client.send(new GetSecretValueCommand({ SecretId: secretId }))).SecretString;
    } finally {
      client.destroy();
    }
  }
  const host = new URL(values['api-url']!).hostname;
  return host === '127.0.0.1' || host === 'localhost' ? savedCarrierToken() : undefined;
}

let token: string | undefined;
try {
  token = await carrierToken();
} catch (error) {
  console.error(`Could not read the carrier token: ${error instanceof Error ? error.name : String(error)}`);
  process.exit(2);
}

const context = smokeContext({
  apiUrl: values['api-url']!,
  keys: values.keys!,
  carrierToken: token,
  receiverUrl: values['receiver-url'],
  buyNumber: values['buy-number'],
  waitSeconds: values['wait-seconds'] ? Number(values['wait-seconds']) : undefined,
});
console.log(`Smoke test of ${values['api-url']} (records named ${context.name})`);
// Interrupted: the records made so far are deleted before exiting, as after a failed step.
process.once('SIGINT', () => {
  console.log('Interrupted: deleting the smoke records made so far');
  deleteSmokeRecords(context)
    .then((deleted) => console.log(`Deleted ${deleted} record(s)`))
    .catch((error: unknown) => console.log(redactSecrets(`Could not delete every smoke record: ${error instanceof Error ? error.message : String(error)}`, context.secrets)))
    .finally(() => process.exit(130));
});
const results = await runSmokeSteps(smokeSteps(), context, { onResult: (result) => console.log(redactSecrets(formatSmokeResult(result), context.secrets)) });
const counts = { pass: 0, fail: 0, skip: 0 };
for (const result of results) counts[result.outcome]++;
console.log(`${smokeFailed(results) ? 'FAILED' : 'PASSED'}: ${counts.pass} passed, ${counts.fail} failed, ${counts.skip} skipped`);
process.exit(smokeFailed(results) ? 1 : 0);
