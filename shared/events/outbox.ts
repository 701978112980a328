import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { eventQueue } from '../adapters/index.js';
import { allCompanyIds } from '../db/companies.js';
import { db, tableName, type TransactItem } from '../db/client.js';
import { timeSortableId } from '../db/ids.js';
import { keys, padId, type Key } from '../db/keys.js';
import { logger } from '../logger.js';
import type { OutboxEnvelope, QueueMessage } from '../ports/events.js';
import { firstIdAt } from '../db/day-records.js';
import { deflateRawSync, inflateRawSync } from 'node:zlib';

/**
 * The transactional outbox (docs/events.md). A change that raises events (or other queued work)
 * writes outbox items holding its messages in the same TransactWriteItems as the change, so the
 * messages exist exactly when the change does. After the commit the writer sends each item to the
 * queue as one envelope (its messages in one queue message) and is done: the delivery function
 * deletes the item when it receives the envelope, off the request path. If the writer dies before
 * sending, or the queue refuses, the item stays and the outbox sweeper sends its envelope later;
 * the sweeper also re-sends an envelope the consumer has not received within the grace period. A
 * message may so reach the queue twice, never zero times; the delivery function's idempotency
 * claims make a duplicate send nothing.
 */
export interface StagedMessages {
  companyId: number;
  /** One per outbox item of the change. */
  envelopes: OutboxEnvelope[];
}

/**
 * The messages of one change share outbox items, stored deflated (`messages_z`: a JSON array).
 * An event carries the record as shown (a call's view is about 1.7 KB of JSON) and a transaction
 * bills 2 write units per started KB of each item: deflated, a call event is about 0.7 KB, and the
 * two events of a call's start (new_call, call_ringing: nearly the same view) fit one item of
 * under 1 KB together, so staging them costs 2 units instead of 8 and clearing them one delete.
 * A change with many messages (a manual fire's sends) is split so no item grows large. An item's
 * envelope is its messages as JSON: at most 64 KB plus about 200 bytes (or one larger message
 * alone, as that message would be), far below SQS's 256 KB per message.
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

/** The queue message that carries an outbox item's messages; its id is the item's, the same on every re-send. */
export function outboxEnvelope(companyId: number, key: Key, messages: QueueMessage[]): OutboxEnvelope {
  return { kind: 'outbox', id: `outbox.${key.sk}`, companyId, key: { pk: key.pk, sk: key.sk }, messages };
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
    staged: { companyId, envelopes: groups.map(({ key, group }) => outboxEnvelope(companyId, key, group)) },
  };
}

/**
 * After the change committed: send its envelopes, one queue request; the delivery function
 * deletes the items when it receives them. Never throws; the change is saved, and what did not
 * reach the queue is still in the outbox for the sweeper.
 */
export async function publishStaged(staged: StagedMessages | undefined): Promise<void> {
  if (!staged || staged.envelopes.length === 0) return;
  try {
    await eventQueue().send(staged.envelopes);
  } catch (error) {
    logger.warn('outbox: publish failed, the sweeper will send these', { error, companyId: staged.companyId, items: staged.envelopes.length });
  }
}

/**
 * Items the sweeper leaves alone, and how long it waits before sending an item again: the writer
 * may still be publishing it, or its envelope may be in the queue, not yet received. Five minutes
 * rides out a short queue backlog without duplicates (the consumer normally receives within
 * seconds); a longer backlog gets one duplicate envelope per item per grace period, which the
 * delivery claims make send nothing.
 */
export const OUTBOX_GRACE_SECONDS = 300;
/** Items one company's sweep sends per run; the rest wait for the next run. */
const SWEEP_LIMIT = 500;
/** Pages one company's sweep reads per run: items it sent recently are read and skipped. */
const SWEEP_PAGES = 10;

export interface OutboxSweepResult {
  companies: number;
  /** Outbox items sent (as envelopes). */
  items: number;
  /** Messages in them. */
  sent: number;
}

/** Notes when the sweeper sent an item, so it is sent again only after another grace period; a deleted item stays deleted. */
async function markSwept(key: Key, now: number): Promise<void> {
  try {
    await db.send(
      new UpdateCommand({
        TableName: tableName,
        Key: key,
        UpdateExpression: 'SET swept_at = :now',
        ConditionExpression: 'attribute_exists(pk)',
        ExpressionAttributeValues: { ':now': now },
      }),
    );
  } catch (error) {
    if (!(error instanceof ConditionalCheckFailedException)) throw error;
  }
}

/**
 * Sends, as envelopes, one company's outbox items made before `before` (ms) and not swept since
 * `before` either; the items and messages sent.
 */
export async function sweepCompanyOutbox(companyId: number, before: number, now: number): Promise<{ items: number; sent: number }> {
  const envelopes: OutboxEnvelope[] = [];
  let startKey: Record<string, unknown> | undefined;
  for (let page = 0; page < SWEEP_PAGES && envelopes.length < SWEEP_LIMIT; page++) {
    const result = await db.send(
      new QueryCommand({
        TableName: tableName,
        KeyConditionExpression: 'pk = :pk AND sk < :before',
        FilterExpression: 'attribute_not_exists(swept_at) OR swept_at < :swept',
        ExpressionAttributeValues: { ':pk': keys.outboxPartition(companyId), ':before': padId(firstIdAt(before)), ':swept': before },
        ConsistentRead: true,
        Limit: SWEEP_LIMIT,
        ExclusiveStartKey: startKey,
      }),
    );
    for (const item of result.Items ?? []) envelopes.push(outboxEnvelope(companyId, { pk: String(item.pk), sk: String(item.sk) }, unpackMessages(item)));
    startKey = result.LastEvaluatedKey;
    if (!startKey) break;
  }
  // A page may overshoot the limit: the rest waits for the next run.
  envelopes.splice(SWEEP_LIMIT);
  if (envelopes.length === 0) return { items: 0, sent: 0 };
  await eventQueue().send(envelopes);
  for (let start = 0; start < envelopes.length; start += 25) await Promise.all(envelopes.slice(start, start + 25).map((envelope) => markSwept(envelope.key, now)));
  return { items: envelopes.length, sent: envelopes.reduce((sum, envelope) => sum + envelope.messages.length, 0) };
}

/**
 * The outbox sweeper: sends what writers left behind (a crash between commit and publish, a
 * queue outage) and what the delivery function has not received within the grace period (a
 * queue backlog). Run every minute by an EventBridge rule in AWS and by an interval locally, and
 * once at local start-up with no grace (nothing else is publishing then). A Query per company,
 * and an UpdateItem per item sent.
 */
export async function sweepOutbox(now: Date, options: { companyIds?: readonly number[]; graceSeconds?: number } = {}): Promise<OutboxSweepResult> {
  const companies = options.companyIds ?? (await allCompanyIds());
  const before = now.getTime() - (options.graceSeconds ?? OUTBOX_GRACE_SECONDS) * 1000 + 1;
  let items = 0;
  let sent = 0;
  for (const companyId of companies) {
    const swept = await sweepCompanyOutbox(companyId, before, now.getTime());
    items += swept.items;
    sent += swept.sent;
  }
  return { companies: companies.length, items, sent };
}
