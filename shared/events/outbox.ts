import { BatchWriteCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { eventQueue } from '../adapters/index.js';
import { allCompanyIds } from '../db/companies.js';
import { db, tableName, type TransactItem } from '../db/client.js';
import { timeSortableId } from '../db/ids.js';
import { keys, padId, type Key } from '../db/keys.js';
import { logger } from '../logger.js';
import type { QueueMessage } from '../ports/events.js';
import { firstIdAt } from '../db/day-records.js';
import { deflateRawSync, inflateRawSync } from 'node:zlib';

/**
 * The transactional outbox (docs/events.md). A change that raises events (or other queued work)
 * writes an outbox item per message in the same TransactWriteItems as the change, so the message
 * exists exactly when the change does. After the commit the writer sends the messages to the
 * queue and deletes their outbox items; if it dies in between, or the queue refuses, the outbox
 * sweeper sends them later. A message may so reach the queue twice, never zero times; the
 * delivery function's idempotency claims make a duplicate send nothing.
 */
export interface StagedMessages {
  companyId: number;
  entries: Array<{ key: Key; message: QueueMessage }>;
}

/**
 * A message as the outbox item stores it: deflated JSON. An event carries the record as shown
 * (a call's view is about 1.7 KB of JSON), and a transaction bills 2 write units per started KB of
 * each item; deflated, a call event fits in one KB, which halves what every event costs to stage.
 */
export function packMessage(message: QueueMessage): Uint8Array {
  return deflateRawSync(Buffer.from(JSON.stringify(message)));
}

/** The message of an outbox item: `message_z` (packed), or `message` (JSON text, items written before packing). */
export function unpackMessage(item: Record<string, unknown>): QueueMessage {
  const packed = item.message_z;
  const text = packed instanceof Uint8Array ? inflateRawSync(packed).toString('utf8') : String(item.message);
  return JSON.parse(text) as QueueMessage;
}

/** Outbox items of the messages, for the change's transaction, and what to publish after it commits. */
export function stageMessages(companyId: number, messages: readonly QueueMessage[], now: Date): { writes: TransactItem[]; staged: StagedMessages } {
  const entries = messages.map((message) => ({ key: keys.outbox(companyId, timeSortableId(now.getTime()), message.id), message }));
  return {
    writes: entries.map(({ key, message }) => ({
      Put: {
        TableName: tableName,
        Item: { ...key, company_id: companyId, kind: message.kind, message_z: packMessage(message), created_at: now.toISOString() },
        // Unique by construction (the message id is in the key); never overwrite another change's message.
        ConditionExpression: 'attribute_not_exists(pk)',
      },
    })),
    staged: { companyId, entries },
  };
}

async function deleteOutboxItems(itemKeys: readonly Key[]): Promise<void> {
  for (let start = 0; start < itemKeys.length; start += 25) {
    await db.send(new BatchWriteCommand({ RequestItems: { [tableName]: itemKeys.slice(start, start + 25).map((Key) => ({ DeleteRequest: { Key } })) } }));
  }
}

/** Sends committed messages to the queue and clears their outbox items. */
async function relay(staged: StagedMessages): Promise<void> {
  if (staged.entries.length === 0) return;
  await eventQueue().send(staged.entries.map((entry) => entry.message));
  await deleteOutboxItems(staged.entries.map((entry) => entry.key));
}

/**
 * After the change committed: publish its messages. Never throws; the change is saved, and what
 * did not reach the queue is still in the outbox for the sweeper.
 */
export async function publishStaged(staged: StagedMessages | undefined): Promise<void> {
  if (!staged || staged.entries.length === 0) return;
  try {
    await relay(staged);
  } catch (error) {
    logger.warn('outbox: publish failed, the sweeper will send these', { error, companyId: staged.companyId, messages: staged.entries.length });
  }
}

/** Items the sweeper leaves alone: their writer may still be publishing them. */
export const OUTBOX_GRACE_SECONDS = 60;
/** Items one company's sweep sends per run; the rest wait for the next run. */
const SWEEP_LIMIT = 500;

export interface OutboxSweepResult {
  companies: number;
  sent: number;
}

/** Sends one company's outbox items made before `before` (ms); how many. */
export async function sweepCompanyOutbox(companyId: number, before: number): Promise<number> {
  const result = await db.send(
    new QueryCommand({
      TableName: tableName,
      KeyConditionExpression: 'pk = :pk AND sk < :before',
      ExpressionAttributeValues: { ':pk': keys.outboxPartition(companyId), ':before': padId(firstIdAt(before)) },
      ConsistentRead: true,
      Limit: SWEEP_LIMIT,
    }),
  );
  const entries = (result.Items ?? []).map((item) => ({ key: { pk: String(item.pk), sk: String(item.sk) }, message: unpackMessage(item) }));
  await relay({ companyId, entries });
  return entries.length;
}

/**
 * The outbox sweeper: sends what writers left behind (a crash between commit and publish, a
 * queue outage). Run every minute by an EventBridge rule in AWS and by an interval locally, and
 * once at local start-up with no grace (nothing else is publishing then). One Query per company.
 */
export async function sweepOutbox(now: Date, options: { companyIds?: readonly number[]; graceSeconds?: number } = {}): Promise<OutboxSweepResult> {
  const companies = options.companyIds ?? (await allCompanyIds());
  const before = now.getTime() - (options.graceSeconds ?? OUTBOX_GRACE_SECONDS) * 1000 + 1;
  let sent = 0;
  for (const companyId of companies) sent += await sweepCompanyOutbox(companyId, before);
  return { companies: companies.length, sent };
}
