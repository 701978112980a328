import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

/**
 * `npm run redrive`: moves the local dead-letter queues' messages back to the events queue and
 * the background work queue of the running `npm start` (found through DATA_DIR/runtime.json),
 * with their attempts counted from one again. In AWS the same is `aws sqs
 * start-message-move-task --source-arn <the stack's EventsDeadLetterQueueArn output>`
 * (docs/events.md), and for background work the steps dead-letter queue's (docs/operations.md).
 */
const dataDir = resolve(process.env.DATA_DIR ?? '.data');
const runtimeFile = join(dataDir, 'runtime.json');
if (!existsSync(runtimeFile)) {
  console.error(`No running service found (${runtimeFile} is missing): start it with npm start first.`);
  process.exit(1);
}
const runtime = JSON.parse(readFileSync(runtimeFile, 'utf8')) as { dynamodb_endpoint: string; table_name: string };
process.env.DYNAMODB_ENDPOINT = runtime.dynamodb_endpoint;
process.env.TABLE_NAME = runtime.table_name;
process.env.EVENTS_ADAPTER = 'local';
process.env.SCHEDULER_ADAPTER = 'local';

await import('./register-adapters.js');
const { eventQueue } = await import('../adapters/index.js');
const queue = eventQueue() as import('../adapters/local/table-queue.js').TableQueue;
const waiting = await queue.deadLetters();
const moved = await queue.redrive();
console.log(`Moved ${moved} of ${waiting.length} dead-lettered message(s) back to the events queue; the running service delivers them now.`);
const { backgroundWork } = await import('../adapters/background-work.js');
const work = (backgroundWork() as import('../adapters/local/table-work.js').TableWork).queue;
const workWaiting = await work.deadLetters();
const workMoved = await work.redrive();
console.log(`Moved ${workMoved} of ${workWaiting.length} dead-lettered background work item(s) back to its queue; the running service runs them now.`);
