import { inject } from 'vitest';
import { registerLocalAdapters, setLocalTestEnvironment } from './adapter-env.js';

// Runs before each test file's imports, so shared/config.ts reads these at module load.
process.env.DYNAMODB_ENDPOINT = inject('dynamoEndpoint');
process.env.TABLE_NAME = inject('tableName');
setLocalTestEnvironment();
await registerLocalAdapters();

// A number range of this file's own (see test/fixtures/number-range.ts). Imported only now: the
// database modules read the settings above when they load.
const { nextGlobalId } = await import('../../shared/db/companies.js');
const { numberRangeOfBlock } = await import('../fixtures/number-range.js');
process.env.LOCAL_NUMBER_RANGE = numberRangeOfBlock(await nextGlobalId('test_number_range'));
// A queue of this file's own: events this file raises are not received by another file's tests.
process.env.LOCAL_QUEUE_NAME = `test-events-${await nextGlobalId('test_queue')}`;
// A background work queue of this file's own: its drains run only this file's work.
process.env.LOCAL_WORK_QUEUE_NAME = `test-work-${await nextGlobalId('test_work_queue')}`;
// A lead scheduler of this file's own, for the same reason.
process.env.LOCAL_SCHEDULER_NAME = `test-leads-${await nextGlobalId('test_scheduler')}`;
