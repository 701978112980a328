import { registerLocalAdapters } from '../local-registry.js';
import { CallControlRecorder } from './call-control-recorder.js';
import { DeterministicDataProvider } from './deterministic-data-provider.js';
import { EmailOutbox } from './email-outbox.js';
import { FileObjectStorage } from './file-object-storage.js';
import { FixedTranscripts } from './fixed-transcripts.js';
import { LocalBidders } from './local-bidders.js';
import { LocalEncryption } from './local-encryption.js';
import { TableQueue } from './table-queue.js';
import { TableScheduler } from './table-scheduler.js';
import { TableWork } from './table-work.js';
import { DEFAULT_LOCAL_NUMBER_RANGE, TestNumberRange } from './test-number-range.js';

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
    if (work.kind === 'contact_field_cleanup') await (await import('../../contact-fields/field-cleanup.js')).advanceFieldCleanup(work);
    else await (await import('../../contact-imports/import-work.js')).advanceImport(work);
  },
  DEFAULT_LOCAL_NUMBER_RANGE,
});
