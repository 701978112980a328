import type { EventQueuePort } from '../ports/events.js';
import type { TelephonyPort } from '../ports/telephony.js';
import { traced } from '../observability/tracer.js';
import { carrierTokenConfigured, carrierTokenSource } from './carrier-secret.js';
import { SqsEvents } from './aws/sqs-events.js';
import { TwilioCallControl } from './aws/twilio-call-control.js';
import type { EmailPort } from '../ports/email.js';
import type { NumberProvider } from '../ports/numbers.js';
import { SesEmail } from './aws/ses-email.js';
import { TwilioNumbers } from './aws/twilio-numbers.js';
import { localAdapters } from './local-registry.js';

/**
 * Wires each port to its adapter from the environment, once per process. Functions ask for a
 * port and never learn which mode they run in: `npm start` and the tests set the local
 * adapters, the CDK stack the AWS ones.
 */
const emailAdapter = process.env.EMAIL_ADAPTER ?? 'ses';

function createEmailPort(): EmailPort {
  if (emailAdapter === 'local') return new (localAdapters('EMAIL_ADAPTER').EmailOutbox)(process.env.OUTBOX_DIR);
  if (emailAdapter === 'ses') {
    const from = process.env.EMAIL_FROM;
    if (!from) throw new Error('EMAIL_FROM must be set for the SES e-mail adapter');
    return lazyEmail(async () => {
      const { SESv2Client } = await import('@aws-sdk/client-sesv2');
      return new SesEmail(traced(new SESv2Client({})), from);
    });
  }
  throw new Error(`Unknown EMAIL_ADAPTER ${emailAdapter}`);
}

/**
 * An e-mail port whose adapter is made on the first send: the SDK is external to the bundles
 * (the Lambda runtime provides it), and a static import of the SES client would load it at every
 * function's init, though only the delivery function sends (buyers' invitations go through the
 * outbox). A dynamic import is loaded when it runs.
 */
function lazyEmail(make: () => Promise<EmailPort>): EmailPort {
  let port: Promise<EmailPort> | undefined;
  return {
    async send(message) {
      port ??= make();
      await (await port).send(message);
    },
  };
}

let email: EmailPort | undefined;

/** The e-mail port of this process (made on first use, so functions that never mail need no sender). */
export function emailPort(): EmailPort {
  email ??= createEmailPort();
  return email;
}

/** What a Twilio adapter needs, as its refusal to start names it. */
const CARRIER_SETTINGS = 'TWILIO_ACCOUNT_SID and TWILIO_AUTH_TOKEN_SECRET (or TWILIO_AUTH_TOKEN)';

/**
 * NUMBER_PROVIDER: `twilio` (default; TWILIO_ACCOUNT_SID, the carrier auth token (carrier-secret.ts:
 * TWILIO_AUTH_TOKEN_SECRET or TWILIO_AUTH_TOKEN), optional TWILIO_API_BASE) or `local`
 * (LOCAL_NUMBER_RANGE, default +14155550100..+14155550199). Read on first use, so functions that
 * never touch numbers need no carrier settings.
 */
export function createNumberProvider(env: NodeJS.ProcessEnv = process.env): NumberProvider {
  const adapter = env.NUMBER_PROVIDER || 'twilio';
  if (adapter === 'local') {
    const { TestNumberRange, DEFAULT_LOCAL_NUMBER_RANGE } = localAdapters('NUMBER_PROVIDER');
    return new TestNumberRange(env.LOCAL_NUMBER_RANGE || DEFAULT_LOCAL_NUMBER_RANGE);
  }
  if (adapter === 'twilio') {
    const accountSid = env.TWILIO_ACCOUNT_SID;
    if (!accountSid || !carrierTokenConfigured(env)) {
      throw new Error(`${CARRIER_SETTINGS} must be set for the Twilio number provider (the stage's twilioAccountSid and twilioAuthTokenSecret settings in cdk.json, docs/operations.md)`);
    }
    return new TwilioNumbers({ accountSid, authToken: carrierTokenSource(env), baseUrl: env.TWILIO_API_BASE, voiceWebhookBase: env.VOICE_WEBHOOK_BASE });
  }
  throw new Error(`Unknown NUMBER_PROVIDER ${adapter}`);
}

let numbers: NumberProvider | undefined;

/** The number provider of this process (made on first use). */
export function numberProvider(): NumberProvider {
  numbers ??= createNumberProvider();
  return numbers;
}

/**
 * EVENTS_ADAPTER: `sqs` (default; EVENTS_QUEUE_URL) or `local` (a queue in the table,
 * LOCAL_QUEUE_NAME, default `events`, with SQS's visibility, retry and dead-letter semantics).
 */
export function createEventQueue(env: NodeJS.ProcessEnv = process.env): EventQueuePort {
  const adapter = env.EVENTS_ADAPTER || 'sqs';
  if (adapter === 'local') {
    const local = localAdapters('EVENTS_ADAPTER');
    return new local.TableQueue({
      name: env.LOCAL_QUEUE_NAME || 'events',
      visibilityTimeoutSeconds: LOCAL_VISIBILITY_TIMEOUT_SECONDS,
      // As the stack's redrive policy: one receive per attempt of the retry schedule.
      maxReceiveCount: local.eventAttempts(env),
    });
  }
  if (adapter === 'sqs') {
    if (!env.EVENTS_QUEUE_URL) throw new Error('EVENTS_QUEUE_URL must be set for the SQS events adapter');
    const queueUrl = env.EVENTS_QUEUE_URL;
    // The SQS client is made on first use, like the e-mail port's SES client (lazyEmail).
    let made: Promise<EventQueuePort> | undefined;
    const sqs = () => (made ??= import('@aws-sdk/client-sqs').then(({ SQSClient }) => new SqsEvents(traced(new SQSClient({})), queueUrl)));
    return {
      send: async (messages, delaySeconds) => (await sqs()).send(messages, delaySeconds),
      retryLater: async (receiptHandle, seconds) => (await sqs()).retryLater(receiptHandle, seconds),
    };
  }
  throw new Error(`Unknown EVENTS_ADAPTER ${adapter}`);
}

/** Local mode's visibility timeout: six times the delivery's 10 s timeout, as in the stack. */
export const LOCAL_VISIBILITY_TIMEOUT_SECONDS = 60;

let queue: EventQueuePort | undefined;

/** The event queue of this process (made on first use). */
export function eventQueue(): EventQueuePort {
  queue ??= createEventQueue();
  return queue;
}

/** Replaces the event queue (a test injects a failure between commit and publish); no argument goes back to the configured one. */
export function setEventQueue(replacement?: EventQueuePort): void {
  queue = replacement;
}

/** TELEPHONY_ADAPTER: `twilio` (default; the carrier settings above) or `local` (recorded; kept under OUTBOX_DIR when set). */
export function createTelephonyPort(env: NodeJS.ProcessEnv = process.env): TelephonyPort {
  const adapter = env.TELEPHONY_ADAPTER || 'twilio';
  if (adapter === 'local') return new (localAdapters('TELEPHONY_ADAPTER').CallControlRecorder)(env.OUTBOX_DIR);
  if (adapter === 'twilio') {
    if (!env.TWILIO_ACCOUNT_SID || !carrierTokenConfigured(env)) throw new Error(`${CARRIER_SETTINGS} must be set to control calls`);
    return new TwilioCallControl({ accountSid: env.TWILIO_ACCOUNT_SID, authToken: carrierTokenSource(env), baseUrl: env.TWILIO_API_BASE });
  }
  throw new Error(`Unknown TELEPHONY_ADAPTER ${adapter}`);
}

let telephony: TelephonyPort | undefined;

/** The telephony port of this process (made on first use). */
export function telephonyPort(): TelephonyPort {
  telephony ??= createTelephonyPort();
  return telephony;
}

// The clock port lives in its own module so that light modules (db, calls) can read it without
// loading the carrier and AWS adapters above.
export { clock, setClock } from './clock.js';
