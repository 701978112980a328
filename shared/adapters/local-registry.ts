import type { CallControlRecorder } from './local/call-control-recorder.js';
import type { DeterministicDataProvider } from './local/deterministic-data-provider.js';
import type { EmailOutbox } from './local/email-outbox.js';
import type { FileObjectStorage } from './local/file-object-storage.js';
import type { FixedTranscripts } from './local/fixed-transcripts.js';
import type { BackgroundWork } from '../ports/background-work.js';
import type { BiddingPort } from '../ports/bidding.js';
import type { LocalEncryption } from './local/local-encryption.js';
import type { TableQueue } from './local/table-queue.js';
import type { TableWork } from './local/table-work.js';
import type { TableScheduler } from './local/table-scheduler.js';
import type { TestNumberRange } from './local/test-number-range.js';

/**
 * The local adapters' constructors, for the factories in this folder. The factories import no
 * local adapter module, so no Lambda bundle carries them (a function in AWS never runs them):
 * shared/local/register-adapters.ts imports them all and registers them here, and every local
 * entry point imports it first (`npm start`, the CLIs that build ports, the test setup, the
 * benches). Only types are imported above.
 */
export interface LocalAdapters {
  CallControlRecorder: typeof CallControlRecorder;
  DeterministicDataProvider: typeof DeterministicDataProvider;
  EmailOutbox: typeof EmailOutbox;
  FileObjectStorage: typeof FileObjectStorage;
  FixedTranscripts: typeof FixedTranscripts;
  /** Bidders answered in this process (shared/local/local-bidders.ts: it answers as a bidder would, above this layer). */
  LocalBidders: new () => BiddingPort;
  LocalEncryption: typeof LocalEncryption;
  TableQueue: typeof TableQueue;
  TableScheduler: typeof TableScheduler;
  TableWork: typeof TableWork;
  TestNumberRange: typeof TestNumberRange;
  /** Runs one item of background work in this process (what the lead runner does with a queued message in AWS). */
  runBackgroundWork: (work: BackgroundWork) => Promise<void>;
  /** Attempts of an event delivery under the configured retry schedule (shared/events/retry-schedule.ts): the local events queue's receive count. */
  eventAttempts: (env: NodeJS.ProcessEnv) => number;
  /** test-number-range.ts's default range (LOCAL_NUMBER_RANGE unset). */
  DEFAULT_LOCAL_NUMBER_RANGE: string;
}

let registered: LocalAdapters | undefined;

/** Makes the local adapters available to the factories (shared/local/register-adapters.ts). */
export function registerLocalAdapters(adapters: LocalAdapters): void {
  registered = adapters;
}

/** The registered local adapters, or undefined when none are (a Lambda function). */
export function registeredLocalAdapters(): LocalAdapters | undefined {
  return registered;
}

/**
 * The local adapters, for a factory whose setting (e.g. `EVENTS_ADAPTER`) says `local`; throws
 * naming that setting when they are not registered.
 */
export function localAdapters(setting: string): LocalAdapters {
  if (!registered) {
    throw new Error(
      `${setting}=local needs the local adapters: they are registered by npm start, the CLIs and the test setup (shared/local/register-adapters.ts), and are not in Lambda bundles`,
    );
  }
  return registered;
}
