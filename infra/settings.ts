import type { Node } from 'constructs';
import { RetentionDays } from 'aws-cdk-lib/aws-logs';
import { parseAllowedCidrs } from '../shared/outbound/address-policy.js';
import { retryPolicyFromEnv, type RetryPolicy } from '../shared/events/retry-schedule.js';

/**
 * The deployment's settings, read once from CDK context and validated at synth, so a bad value
 * fails `cdk synth`/`cdk deploy` before anything changes. docs/operations.md lists them.
 *
 * Where a value comes from, first match wins:
 *   1. a flat context key: `cdk deploy -c alarmEmail=...` (that run only: the CLI keeps nothing);
 *   2. cdk.json's `stages.<stage>.<key>`: what every later `cdk deploy` of that stage reuses;
 *   3. the default below.
 * `stage` itself is a flat key (cdk.json's `"stage"`, or `-c stage=staging`).
 */
export interface Settings {
  /** Names the stack (`CallTrackingService-<stage>`), so stages live side by side in one account and region. */
  stage: string;
  /** SES sender (a verified address, or an address of a verified domain). */
  emailFrom: string;
  /** Alarm notifications go here (an SNS e-mail subscription); none when unset. */
  alarmEmail?: string;
  twilioAccountSid?: string;
  /** Name or complete ARN of the Secrets Manager secret holding the carrier's auth token. */
  twilioAuthTokenSecret?: string;
  twilioApiBase?: string;
  /** The delivery function's environment (docs/events.md): WEBHOOK_ALLOWED_CIDRS, WEBHOOK_RETRY_SCHEDULE, WEBHOOK_DISABLE_AFTER, the ones set. */
  webhook: Record<string, string>;
  /** The retry policy the events queue is sized for (from webhookRetrySchedule/webhookDisableAfter). */
  retryPolicy: RetryPolicy;
  /** HTTP API default stage throttling: steady requests per second and burst. */
  apiRateLimit: number;
  apiBurstLimit: number;
  /** Route-level throttling of each public ping/post route (partners' traffic), tighter than the stage's. */
  partnerRateLimit: number;
  partnerBurstLimit: number;
  /** Concurrency kept for the voice webhooks; undefined: none reserved (shares the account's pool). */
  voiceReservedConcurrency?: number;
  /** Retention of every function's log group and of the API access logs. */
  logRetention: RetentionDays;
  /**
   * `all`: the API serves the route table. `none`: only `$default` (every request answered 404),
   * the first of two deploys that move the routes between stacks (docs/operations.md, "API routes").
   */
  apiRoutes: 'all' | 'none';
}

/** Every key a `stages.<stage>` block may hold (a typo fails synth instead of being ignored). */
export const SETTING_KEYS = [
  'emailFrom',
  'alarmEmail',
  'twilioAccountSid',
  'twilioAuthTokenSecret',
  'twilioApiBase',
  'webhookAllowedCidrs',
  'webhookRetrySchedule',
  'webhookDisableAfter',
  'apiRateLimit',
  'apiBurstLimit',
  'partnerRateLimit',
  'partnerBurstLimit',
  'voiceReservedConcurrency',
  'logRetentionDays',
] as const;

type SettingKey = (typeof SETTING_KEYS)[number];

export const DEFAULT_STAGE = 'prod';

export const DEFAULTS = {
  emailFrom: 'noreply@example.com',
  // Well under the account's regional 10,000 requests/s, 5,000 burst, which all APIs share.
  apiRateLimit: 200,
  apiBurstLimit: 400,
  // Per route: a partner's flood is cut off long before it uses up the stage or the functions.
  partnerRateLimit: 50,
  partnerBurstLimit: 100,
  // Lambda keeps 100 of the account's concurrency unreserved, so this needs a limit of at least 120.
  voiceReservedConcurrency: 20,
  logRetentionDays: 30,
  apiRoutes: 'all',
} as const;

/** The stack's construct id and CloudFormation name for a stage. */
export function stackName(stage: string): string {
  return `CallTrackingService-${stage}`;
}

const EMAIL = /^[^\s@<>()",;]+@[^\s@<>()",;]+\.[^\s@<>()",;]+$/;
const SECRET = /^(arn:aws[a-z-]*:secretsmanager:[a-z0-9-]+:\d{12}:secret:[\w/+=.@-]+|[\w/+=.@-]{1,512})$/;

/**
 * Reads and validates the settings from the node's context; `stage` when given (one App holding
 * several stages' stacks), else the `stage` context key.
 */
export function readSettings(node: Node, stageName?: string): Settings {
  const stage = stageName ?? text(node.tryGetContext('stage'), 'stage') ?? DEFAULT_STAGE;
  // Letters, digits and hyphens, as CloudFormation allows in a stack name.
  if (!/^[a-z][a-z0-9-]{0,19}$/.test(stage)) throw new Error(`stage must be 1 to 20 lower-case letters, digits or hyphens starting with a letter, not "${stage}"`);

  const stages: unknown = node.tryGetContext('stages');
  if (stages !== undefined && !isRecord(stages)) throw new Error('stages (cdk.json) must be an object of stage name to settings');
  // A mistyped `-c stage=...` would otherwise deploy a whole new stack, table and all.
  if (stages !== undefined && !(stage in stages)) {
    throw new Error(`stage "${stage}" is not in cdk.json's stages (${Object.keys(stages).join(', ')}): add it there, even as {}`);
  }
  const block: unknown = stages?.[stage] ?? {};
  if (!isRecord(block)) throw new Error(`stages.${stage} (cdk.json) must be an object of settings`);
  const unknownKeys = Object.keys(block).filter((key) => !(SETTING_KEYS as readonly string[]).includes(key));
  if (unknownKeys.length > 0) throw new Error(`stages.${stage} has unknown settings: ${unknownKeys.join(', ')} (known: ${SETTING_KEYS.join(', ')})`);

  const raw = (key: SettingKey): unknown => node.tryGetContext(key) ?? block[key];
  const str = (key: SettingKey): string | undefined => text(raw(key), key);

  const emailFrom = str('emailFrom') ?? DEFAULTS.emailFrom;
  if (!EMAIL.test(emailFrom)) throw new Error(`emailFrom must be a bare e-mail address (no display name), not "${emailFrom}"`);
  const alarmEmail = str('alarmEmail');
  if (alarmEmail !== undefined && !EMAIL.test(alarmEmail)) throw new Error(`alarmEmail must be an e-mail address, not "${alarmEmail}"`);

  const twilioAccountSid = str('twilioAccountSid');
  if (twilioAccountSid !== undefined && !/^\w+$/.test(twilioAccountSid)) throw new Error(`twilioAccountSid must be letters and digits, not "${twilioAccountSid}"`);
  const twilioAuthTokenSecret = str('twilioAuthTokenSecret');
  if (twilioAuthTokenSecret !== undefined && !SECRET.test(twilioAuthTokenSecret)) {
    throw new Error(`twilioAuthTokenSecret must be a Secrets Manager secret name or complete ARN, not "${twilioAuthTokenSecret}"`);
  }
  const twilioApiBase = str('twilioApiBase');
  if (twilioApiBase !== undefined && !/^https:\/\/[^\s/]+(\/\S*)?$/.test(twilioApiBase)) throw new Error(`twilioApiBase must be an https:// URL, not "${twilioApiBase}"`);

  const webhook = {
    WEBHOOK_ALLOWED_CIDRS: str('webhookAllowedCidrs'),
    WEBHOOK_RETRY_SCHEDULE: str('webhookRetrySchedule'),
    WEBHOOK_DISABLE_AFTER: str('webhookDisableAfter'),
  };
  // The functions' own parsers: what synth accepts, the delivery function accepts.
  parseAllowedCidrs(webhook.WEBHOOK_ALLOWED_CIDRS);
  const retryPolicy = retryPolicyFromEnv(webhook);

  const apiRateLimit = positive(raw('apiRateLimit'), 'apiRateLimit') ?? DEFAULTS.apiRateLimit;
  const apiBurstLimit = positive(raw('apiBurstLimit'), 'apiBurstLimit', true) ?? DEFAULTS.apiBurstLimit;
  const partnerRateLimit = positive(raw('partnerRateLimit'), 'partnerRateLimit') ?? DEFAULTS.partnerRateLimit;
  const partnerBurstLimit = positive(raw('partnerBurstLimit'), 'partnerBurstLimit', true) ?? DEFAULTS.partnerBurstLimit;
  if (partnerRateLimit > apiRateLimit || partnerBurstLimit > apiBurstLimit) {
    throw new Error('partnerRateLimit and partnerBurstLimit must not exceed apiRateLimit and apiBurstLimit: the partner routes are the tighter ones');
  }

  // `none` (or null in cdk.json) reserves nothing: for accounts whose concurrency limit is below 120.
  const reserved = raw('voiceReservedConcurrency');
  const voiceReservedConcurrency =
    reserved === null || reserved === 'none' ? undefined : (positive(reserved, 'voiceReservedConcurrency', true) ?? DEFAULTS.voiceReservedConcurrency);

  const retentionDays = positive(raw('logRetentionDays'), 'logRetentionDays', true) ?? DEFAULTS.logRetentionDays;
  const retentions = Object.values(RetentionDays).filter((value): value is number => typeof value === 'number' && value !== RetentionDays.INFINITE);
  if (!retentions.includes(retentionDays)) throw new Error(`logRetentionDays must be one of CloudWatch Logs' periods (${retentions.join(', ')}), not ${retentionDays}`);

  // A flat key only (`-c apiRoutes=none`), never a stage's block: kept in cdk.json, every deploy would drop the routes.
  const apiRoutes = text(node.tryGetContext('apiRoutes'), 'apiRoutes') ?? DEFAULTS.apiRoutes;
  if (apiRoutes !== 'all' && apiRoutes !== 'none') throw new Error(`apiRoutes must be "all" or "none", not "${apiRoutes}"`);

  return {
    stage,
    emailFrom,
    alarmEmail,
    twilioAccountSid,
    twilioAuthTokenSecret,
    twilioApiBase,
    webhook: Object.fromEntries(Object.entries(webhook).filter((entry): entry is [string, string] => entry[1] !== undefined)),
    retryPolicy,
    apiRateLimit,
    apiBurstLimit,
    partnerRateLimit,
    partnerBurstLimit,
    voiceReservedConcurrency,
    logRetention: retentionDays as RetentionDays,
    apiRoutes,
  };
}

/** The domain of an e-mail address (SES identities are addresses or domains). */
export function emailDomain(address: string): string {
  return address.slice(address.lastIndexOf('@') + 1);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A string setting; empty means unset (so cdk.json can list a key without a value). */
function text(value: unknown, key: string): string | undefined {
  if (value === undefined || value === null || value === '') return undefined;
  if (typeof value !== 'string') throw new Error(`${key} must be a string, not ${JSON.stringify(value)}`);
  return value.trim() || undefined;
}

/** A positive number (a JSON number in cdk.json, a string from `-c`); integers where asked. */
function positive(value: unknown, key: string, integer = false): number | undefined {
  if (value === undefined || value === null || value === '') return undefined;
  const number = typeof value === 'string' ? Number(value) : value;
  if (typeof number !== 'number' || !Number.isFinite(number) || number <= 0 || (integer && !Number.isInteger(number))) {
    throw new Error(`${key} must be a positive ${integer ? 'integer' : 'number'}, not ${JSON.stringify(value)}`);
  }
  return number;
}
