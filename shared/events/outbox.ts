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
  /** Each message with the key of the outbox item holding it (several messages may share one). */
  entries: Array<{ key: Key; message: QueueMessage }>;
}

/**
 * The messages of one change share outbox items, stored deflated (`messages_z`: a JSON array).
 * An event carries the record as shown (a call's view is about 1.7 KB of JSON) and a transaction
 * bills 2 write units per started KB of each item: deflated, a call event is about 0.7 KB, and the
 * two events of a call's start (new_call, call_ringing: nearly the same view) fit one item of
 * under 1 KB together, so staging them costs 2 units instead of 8 and clearing them one delete.
 * A change with many messages (a manual fire's sends) is split so no item grows large.
 */
const MESSAGES_PER_ITEM = 25;
const RAW_BYTES_PER_ITEM = 64 * 1024;

function packMessages(messages: readonly QueueMessage[]): Uint8Array {
  return deflateRawSync(Buffer.from(JSON.stringify(messages)));
}

/**
 * The messages of an outbox item: `messages_z` (deflated JSON array), or `message` (one message
 * as JSON text: items written before messages were packed).
 */
function unpackMessages(item: Record<string, unknown>): QueueMessage[] {
  const packed = item.messages_z;
  if (packed instanceof Uint8Array) return JSON.parse(inflateRawSync(packed).toString('utf8')) as QueueMessage[];
  return [JSON.parse(String(item.message)) as QueueMessage];
}

/** The messages split into the groups that share an item, in order. Pure. */
function outboxGroups(messages: readonly QueueMessage[]): QueueMessage[][] {
  const groups: QueueMessage[][] = [];
  let bytes = 0;
  for (const message of messages) {
    const size = Buffer.byteLength(JSON.stringify(message));
    const last = groups[groups.length - 1];
    if (last && last.length < MESSAGES_PER_ITEM && bytes + size <= RAW_BYTES_PER_ITEM) {
      last.push(message);
      bytes += size;
    } else {
      groups.push([message]);
      bytes = size;
    }
  }
  return groups;
}

/** Outbox items of the messages, for the change's transaction, and what to publish after it commits. */
export function stageMessages(companyId: number, messages: readonly QueueMessage[], now: Date): { writes: TransactItem[]; staged: StagedMessages } {
  const groups = outboxGroups(messages).map((group) => ({ key: keys.outbox(companyId, timeSortableId(now.getTime()), group[0]!.id), group }));
  return {
    writes: groups.map(({ key, group }) => ({
      Put: {
        TableName: tableName,
        Item: { ...key, company_id: companyId, messages_z: packMessages(group), created_at: now.toISOString() },
        // Unique by construction (the first message's id is in the key); never overwrite another change's messages.
        ConditionExpression: 'attribute_not_exists(pk)',
      },
    })),
    staged: { companyId, entries: groups.flatMap(({ key, group }) => group.map((message) => ({ key, message }))) },
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
  // Messages of one item share its key: each item deleted once.
  const itemKeys = new Map(staged.entries.map((entry) => [`${entry.key.pk}\n${entry.key.sk}`, entry.key]));
  await deleteOutboxItems([...itemKeys.values()]);
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
  const entries = (result.Items ?? []).flatMap((item) => unpackMessages(item).map((message) => ({ key: { pk: String(item.pk), sk: String(item.sk) }, message })));
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
