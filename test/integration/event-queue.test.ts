import { randomUUID } from 'node:crypto';
import { QueryCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { afterEach, describe, expect, it } from 'vitest';
import { setEventQueue } from '../../shared/adapters/index.js';
import { TableQueue } from '../../shared/adapters/local/table-queue.js';
import { db, tableName } from '../../shared/db/client.js';
import { nextGlobalId } from '../../shared/db/companies.js';
import { keys } from '../../shared/db/keys.js';
import { OUTBOX_GRACE_SECONDS, publishStaged, stageMessages, sweepOutbox } from '../../shared/events/outbox.js';
import { drainQueue } from '../../shared/local/delivery-worker.js';
import { itemSize } from '../../shared/db/item-limits.js';
import type { EventQueueMessage, QueueMessage } from '../../shared/ports/events.js';
import type { EventName } from '../../shared/events/event-names.js';
import { pinClock, restoreClock } from '../fixtures/clock.js';
import { workOfBodies } from '../fixtures/queue-messages.js';

afterEach(() => {
  restoreClock();
  setEventQueue();
});

const newQueue = (maxReceiveCount = 3) => new TableQueue({ name: `it-${randomUUID()}`, visibilityTimeoutSeconds: 60, maxReceiveCount });
const message = (companyId = 1): QueueMessage => {
  const id = randomUUID();
  return { kind: 'event', id, companyId, event: { id, name: 'call_ended', companyId, occurredAt: new Date().toISOString(), data: { id: 1 } } };
};

describe('the local table queue (SQS semantics)', () => {
  it('hides a received message for the visibility timeout, then hands it out again with its receive count', async () => {
    const start = Date.parse('2030-01-01T00:00:00Z');
    pinClock(new Date(start));
    const queue = newQueue(5);
    const sent = message();
    await queue.send([sent]);
    const [first] = await queue.receive();
    expect(JSON.parse(first!.body)).toEqual(sent);
    expect(first!.receiveCount).toBe(1);
    expect(await queue.receive()).toEqual([]);
    pinClock(new Date(start + 61_000));
    const [second] = await queue.receive();
    expect(second!.receiveCount).toBe(2);
    expect(second!.messageId).toBe(first!.messageId);
    await queue.delete(second!.receiptHandle);
    pinClock(new Date(start + 200_000));
    expect(await queue.receive()).toEqual([]);
    expect(await queue.depth()).toBe(0);
  });

  it('makes a retried message visible after the delay asked for, and delays a send', async () => {
    const start = Date.parse('2030-01-01T00:00:00Z');
    pinClock(new Date(start));
    const queue = newQueue(5);
    await queue.send([message()]);
    await queue.send([message()], 30);
    const [received] = await queue.receive();
    await queue.retryLater(received!.receiptHandle, 10);
    pinClock(new Date(start + 9_000));
    expect(await queue.receive()).toEqual([]);
    pinClock(new Date(start + 11_000));
    expect(await queue.receive()).toHaveLength(1);
    pinClock(new Date(start + 31_000));
    expect(await queue.receive()).toHaveLength(1);
  });

  it('moves a message received more than maxReceiveCount times to the dead-letter queue; redrive brings it back', async () => {
    const queue = newQueue(2);
    const sent = message();
    await queue.send([sent]);
    for (let i = 0; i < 2; i++) {
      const [received] = await queue.receive();
      await queue.retryLater(received!.receiptHandle, 0);
    }
    expect(await queue.receive()).toEqual([]);
    const dead = await queue.deadLetters();
    expect(dead.map((letter) => JSON.parse(letter.body))).toEqual([sent]);
    expect(await queue.redrive()).toBe(1);
    expect(await queue.deadLetters()).toEqual([]);
    const [again] = await queue.receive();
    expect(again!.receiveCount).toBe(1);
  });

  it('never hands one message to two receivers at once', async () => {
    const queue = newQueue(5);
    await queue.send(Array.from({ length: 6 }, () => message()));
    const [a, b, c] = await Promise.all([queue.receive(6), queue.receive(6), queue.receive(6)]);
    const ids = [...a!, ...b!, ...c!].map((received) => received.messageId);
    expect(ids).toHaveLength(6);
    expect(new Set(ids).size).toBe(6);
  });
});

describe('the outbox', () => {
  // An id from the companies' own sequence: no other test file's company shares its outbox partition.
  const outboxCompanyId = () => nextGlobalId('company');
  const outboxItems = async (companyId: number) =>
    (await db.send(new QueryCommand({ TableName: tableName, KeyConditionExpression: 'pk = :pk', ExpressionAttributeValues: { ':pk': keys.outboxPartition(companyId) } }))).Items ?? [];

  async function commit(companyId: number, messages: QueueMessage[], now: Date) {
    const { writes, staged } = stageMessages(companyId, messages, now);
    // The change itself: any item, in the same transaction as its outbox items.
    await db.send(new TransactWriteCommand({ TransactItems: [{ Put: { TableName: tableName, Item: { pk: `C#${companyId}#thing`, sk: randomUUID() } } }, ...writes] }));
    return staged;
  }

  const GRACE_MS = OUTBOX_GRACE_SECONDS * 1000;
  const envelopesOf = async (queue: TableQueue) => (await queue.peek()).map((body) => JSON.parse(body) as EventQueueMessage);

  it('publishes a change\'s messages as one envelope per outbox item, and the consumer that receives it deletes the item', async () => {
    const companyId = await outboxCompanyId();
    const queue = newQueue();
    setEventQueue(queue);
    const messages = [message(companyId), message(companyId)];
    const staged = await commit(companyId, messages, new Date());
    // One change's messages share one item.
    const [item] = await outboxItems(companyId);
    expect(item).toBeDefined();
    await publishStaged(staged);
    // The publish is the queue send alone: the item stays until its envelope is received.
    expect(await outboxItems(companyId)).toHaveLength(1);
    expect(await envelopesOf(queue)).toEqual([{ kind: 'outbox', id: `outbox.${item!.sk}`, companyId, key: { pk: item!.pk, sk: item!.sk }, messages }]);
    expect(await drainQueue(queue)).toEqual({ handled: 1, failed: 0 });
    expect(await outboxItems(companyId)).toHaveLength(0);
  });

  it('keeps what the queue refused; the sweeper sends it as an envelope after the grace period, and again only after another one', async () => {
    const companyId = await outboxCompanyId();
    const queue = newQueue();
    setEventQueue({ send: async () => Promise.reject(new Error('queue unavailable')), retryLater: async () => undefined });
    const start = new Date('2030-01-01T00:00:00Z');
    const sent = message(companyId);
    await publishStaged(await commit(companyId, [sent], start));
    expect(await outboxItems(companyId)).toHaveLength(1);
    setEventQueue(queue);
    // Within the grace period the writer may still be publishing: the sweeper leaves it.
    expect(await sweepOutbox(new Date(start.getTime() + GRACE_MS - 1000), { companyIds: [companyId] })).toEqual({ companies: 1, items: 0, sent: 0 });
    const swept = start.getTime() + GRACE_MS + 1000;
    expect(await sweepOutbox(new Date(swept), { companyIds: [companyId] })).toEqual({ companies: 1, items: 1, sent: 1 });
    expect(await envelopesOf(queue)).toEqual([expect.objectContaining({ kind: 'outbox', companyId, messages: [sent] })]);
    // Its envelope is in the queue: the next runs leave the item alone for a grace period...
    expect((await sweepOutbox(new Date(swept + 60_000), { companyIds: [companyId] })).items).toBe(0);
    // ...then send it again if nobody received the envelope (a queue backlog): the same envelope id.
    expect((await sweepOutbox(new Date(swept + GRACE_MS + 1000), { companyIds: [companyId] })).items).toBe(1);
    const envelopes = await envelopesOf(queue);
    expect(envelopes).toHaveLength(2);
    expect(envelopes[1]!.id).toBe(envelopes[0]!.id);
    pinClock(new Date(swept + GRACE_MS + 2000));
    expect(await drainQueue(queue)).toEqual({ handled: 2, failed: 0 });
    expect(await outboxItems(companyId)).toHaveLength(0);
    expect((await sweepOutbox(new Date(swept + 3 * GRACE_MS), { companyIds: [companyId] })).items).toBe(0);
  });

  it('stores a change\'s messages in one deflated item: two call events of about 1.7 KB of JSON each in under 1 KB (2 write units in a transaction, not 8)', async () => {
    const companyId = await outboxCompanyId();
    const queue = newQueue();
    setEventQueue(queue);
    // A call view's worth of fields: what every call event carries; the start's two events carry nearly the same view.
    const data = Object.fromEntries(Array.from({ length: 60 }, (_, i) => [`field_${i}`, i % 3 === 0 ? null : `value ${i} of the call`]));
    const event = (name: EventName): QueueMessage => {
      const id = randomUUID();
      return { kind: 'event', id, companyId, event: { id, name, companyId, occurredAt: new Date().toISOString(), data: { ...data, status: name } } };
    };
    const events = [event('new_call'), event('call_ringing')];
    for (const message of events) expect(Buffer.byteLength(JSON.stringify(message))).toBeGreaterThan(1500);
    const staged = await commit(companyId, events, new Date());
    const items = await outboxItems(companyId);
    expect(items).toHaveLength(1);
    expect(items[0]!.message).toBeUndefined();
    expect(itemSize(items[0]!).bytes).toBeLessThan(1024);
    await publishStaged(staged);
    expect(workOfBodies(await queue.peek())).toEqual(events);
  });

  it('splits a change with many messages over several items, and the sweeper sends every message of each once, one envelope per item', async () => {
    const companyId = await outboxCompanyId();
    const queue = newQueue();
    setEventQueue({ send: async () => Promise.reject(new Error('queue unavailable')), retryLater: async () => undefined });
    const start = new Date('2030-01-01T00:00:00Z');
    const messages = Array.from({ length: 60 }, () => message(companyId));
    await publishStaged(await commit(companyId, messages, start));
    expect(await outboxItems(companyId)).toHaveLength(3);
    setEventQueue(queue);
    expect(await sweepOutbox(new Date(start.getTime() + GRACE_MS + 1000), { companyIds: [companyId] })).toEqual({ companies: 1, items: 3, sent: 60 });
    expect(await queue.peek()).toHaveLength(3);
    // The queue promises no order (SQS standard): every message once.
    const byId = (a: QueueMessage, b: QueueMessage) => a.id.localeCompare(b.id);
    expect(workOfBodies(await queue.peek()).sort(byId)).toEqual([...messages].sort(byId));
  });

  it('keeps an envelope of a full item far below SQS\'s 256 KB per message', async () => {
    const companyId = await outboxCompanyId();
    const queue = newQueue();
    setEventQueue(queue);
    // Events of about 5 KB of JSON (a call with a long timeline): the item packing limit (64 KB of JSON) splits them.
    const big = (): QueueMessage => {
      const id = randomUUID();
      return { kind: 'event', id, companyId, event: { id, name: 'call_ended', companyId, occurredAt: new Date().toISOString(), data: { id: 1, note: randomUUID().repeat(140) } } };
    };
    const messages = Array.from({ length: 40 }, big);
    await publishStaged(await commit(companyId, messages, new Date()));
    const bodies = await queue.peek();
    expect(bodies.length).toBeGreaterThan(1);
    for (const body of bodies) expect(Buffer.byteLength(body)).toBeLessThan(66 * 1024);
    expect(workOfBodies(bodies)).toHaveLength(40);
  });

  it('sweeps items written before messages were packed (one message as JSON text in `message`)', async () => {
    const companyId = await outboxCompanyId();
    const queue = newQueue();
    setEventQueue(queue);
    const start = new Date('2030-01-01T00:00:00Z');
    const sent = message(companyId);
    const { writes } = stageMessages(companyId, [sent], start);
    const put = writes[0]!.Put!;
    const { messages_z: _packed, ...older } = put.Item as Record<string, unknown>;
    await db.send(new TransactWriteCommand({ TransactItems: [{ Put: { ...put, Item: { ...older, message: JSON.stringify(sent) } } }] }));
    expect((await sweepOutbox(new Date(start.getTime() + GRACE_MS + 1000), { companyIds: [companyId] })).sent).toBe(1);
    expect(workOfBodies(await queue.peek())).toEqual([sent]);
    pinClock(new Date(start.getTime() + GRACE_MS + 2000));
    await drainQueue(queue);
    expect(await outboxItems(companyId)).toHaveLength(0);
  });
});
