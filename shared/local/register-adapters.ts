import { maxAttempts, retryPolicyFromEnv } from '../events/retry-schedule.js';
import { registerLocalAdapters } from '../adapters/local-registry.js';
import { CallControlRecorder } from '../adapters/local/call-control-recorder.js';
import { DeterministicDataProvider } from '../adapters/local/deterministic-data-provider.js';
import { EmailOutbox } from '../adapters/local/email-outbox.js';
import { FileObjectStorage } from '../adapters/local/file-object-storage.js';
import { FixedTranscripts } from '../adapters/local/fixed-transcripts.js';
import { LocalBidders } from './local-bidders.js';
import { LocalEncryption } from '../adapters/local/local-encryption.js';
import { TableQueue } from '../adapters/local/table-queue.js';
import { TableScheduler } from '../adapters/local/table-scheduler.js';
import { TableWork } from '../adapters/local/table-work.js';
import { DEFAULT_LOCAL_NUMBER_RANGE, TestNumberRange } from '../adapters/local/test-number-range.js';

/**
 * Registers every local adapter with the factories (shared/adapters/local-registry.ts). Imported
 * by the local entry points only (`npm start`, the CLIs that build ports, the test setup, the
 * benches), never by a Lambda handler. It loads the database client (the table queues and
 * scheduler use it): import it once DYNAMODB_ENDPOINT and TABLE_NAME are set.
 */
registerLocalAdapters({
  CallControlRecorder,
  DeterministicDataProvider,
  EmailOutbox,
  FileObjectStorage,
  FixedTranscripts,
  LocalBidders,
  LocalEncryption,
  TableQueue,
  TableScheduler,
  TableWork,
  TestNumberRange,
  // Loaded on first use: the import runner brings the CSV parser and the lead engine.
  runBackgroundWork: async (work) => {
    if (work.kind === 'contact_field_cleanup') await (await import('../contact-fields/field-cleanup.js')).advanceFieldCleanup(work);
    else await (await import('../contact-imports/import-work.js')).advanceImport(work);
  },
  eventAttempts: (env) => maxAttempts(retryPolicyFromEnv(env)),
  DEFAULT_LOCAL_NUMBER_RANGE,
});
