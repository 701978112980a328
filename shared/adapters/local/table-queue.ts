import { BatchWriteCommand, DeleteCommand, GetCommand, QueryCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { randomUUID } from 'node:crypto';
import { db, tableName } from '../../db/client.js';
import { keys } from '../../db/keys.js';
import type { EventQueueMessage } from '../../ports/events.js';
import { clock } from '../clock.js';

/** A message as a consumer receives it (the fields of an SQS record the delivery function reads). */
export interface ReceivedMessage {
  messageId: string;
  receiptHandle: string;
  body: string;
  /** 1 on the first receive. */
  receiveCount: number;
}

export interface TableQueueOptions {
  /** Partition name; tests give each file its own queue. */
  name: string;
  /** Seconds a received message stays invisible unless deleted or retried sooner (SQS's visibility timeout). */
  visibilityTimeoutSeconds: number;
  /** A message received more often than this goes to the dead-letter queue instead (SQS's maxReceiveCount). */
  maxReceiveCount: number;
}

const RECEIPT_SEPARATOR = '|';

/** Send order within this process, so `peek` lists messages sent in the same millisecond in order. */
let sendSequence = 0;

/**
 * The local queue, with SQS's semantics where the delivery function depends on them: a message
 * is invisible for the visibility timeout after each receive, comes back if it was not deleted,
 * can be made visible later (ChangeMessageVisibility), and after `maxReceiveCount` receives goes
 * to a dead-letter queue, from which `redrive()` moves it back. Messages are items of the table
 * (keys.localQueueMessage), so they survive a restart of `npm start` like SQS survives a Lambda
 * crash. Receiving claims a message with a conditional transaction, so two workers never take the
 * same one. Time comes from the clock port, so tests move time instead of waiting. Messages are
 * the events queue's by default (EventQueuePort); local background work (table-work.ts) queues
 * its own kind in a queue of its own.
 */
export class TableQueue<Message = EventQueueMessage> {
  private readonly listeners = new Set<() => void>();

  constructor(readonly options: TableQueueOptions) {}

  get deadLetterName(): string {
    return `${this.options.name}-dead-letters`;
  }

  /** Called after every send (the local worker wakes up instead of polling). */
  onSend(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  async send(messages: readonly Message[], delaySeconds = 0): Promise<void> {
    const visibleAt = clock().now().getTime() + delaySeconds * 1000;
    const items = messages.map((message) => ({
      ...keys.localQueueMessage(this.options.name, visibleAt, randomUUID()),
      message_id: randomUUID(),
      body: JSON.stringify(message),
      receive_count: 0,
      sent_at: clock().now().toISOString(),
      sequence: ++sendSequence,
    }));
    for (let start = 0; start < items.length; start += 25) {
      await db.send(new BatchWriteCommand({ RequestItems: { [tableName]: items.slice(start, start + 25).map((Item) => ({ PutRequest: { Item } })) } }));
    }
    for (const listener of this.listeners) listener();
  }

  /** Up to `max` messages due now, each made invisible for the visibility timeout. */
  async receive(max = 10): Promise<ReceivedMessage[]> {
    const now = clock().now().getTime();
    const due = await db.send(
      new QueryCommand({
        TableName: tableName,
        KeyConditionExpression: 'pk = :pk AND sk <= :now',
        ExpressionAttributeValues: { ':pk': keys.localQueue(this.options.name), ':now': `${keys.localQueueMessage(this.options.name, now, '').sk}\uffff` },
        ConsistentRead: true,
        Limit: max * 2,
      }),
    );
    const received: ReceivedMessage[] = [];
    for (const item of due.Items ?? []) {
      if (received.length >= max) break;
      const count = Number(item.receive_count) + 1;
      const messageId = String(item.message_id);
      if (count > this.options.maxReceiveCount) {
        await this.move(String(item.sk), this.options.name, this.deadLetterName, now, { receive_count: Number(item.receive_count) });
        continue;
      }
      const handle = await this.move(String(item.sk), this.options.name, this.options.name, now + this.options.visibilityTimeoutSeconds * 1000, { receive_count: count });
      if (handle) received.push({ messageId, receiptHandle: handle, body: String(item.body), receiveCount: count });
    }
    return received;
  }

  /** The message was handled: it leaves the queue. */
  async delete(receiptHandle: string): Promise<void> {
    await db.send(new DeleteCommand({ TableName: tableName, Key: { pk: keys.localQueue(this.options.name), sk: receiptHandle } }));
  }

  async retryLater(receiptHandle: string, seconds: number): Promise<void> {
    await this.move(receiptHandle, this.options.name, this.options.name, clock().now().getTime() + seconds * 1000, {});
  }

  /** The dead-letter queue's messages (bodies), oldest first. */
  async deadLetters(): Promise<Array<{ messageId: string; body: string; receiveCount: number }>> {
    const items = await this.all(this.deadLetterName);
    return items.map((item) => ({ messageId: String(item.message_id), body: String(item.body), receiveCount: Number(item.receive_count) }));
  }

  /** Moves every dead letter back to the queue with its receive count reset (SQS's redrive); how many. */
  async redrive(): Promise<number> {
    const items = await this.all(this.deadLetterName);
    const now = clock().now().getTime();
    let moved = 0;
    for (const item of items) if (await this.move(String(item.sk), this.deadLetterName, this.options.name, now, { receive_count: 0 })) moved++;
    return moved;
  }

  /** The bodies of the messages waiting or in flight, in the order they were sent (tests read it). */
  async peek(): Promise<string[]> {
    const items = await this.all(this.options.name);
    return items.sort((a, b) => Number(a.sequence) - Number(b.sequence)).map((item) => String(item.body));
  }

  /** Messages waiting or in flight (tests and the bench read it). */
  async depth(): Promise<number> {
    return (await this.all(this.options.name)).length;
  }

  private async all(queue: string): Promise<Record<string, unknown>[]> {
    const items: Record<string, unknown>[] = [];
    let start: Record<string, unknown> | undefined;
    do {
      const page = await db.send(
        new QueryCommand({ TableName: tableName, KeyConditionExpression: 'pk = :pk', ExpressionAttributeValues: { ':pk': keys.localQueue(queue) }, ConsistentRead: true, ExclusiveStartKey: start }),
      );
      items.push(...(page.Items ?? []));
      start = page.LastEvaluatedKey;
    } while (start);
    return items;
  }

  /**
   * Moves a message to another due time (and queue) in one transaction; the condition on the old
   * item makes a concurrent receive or delete win cleanly. The new sort key is the receipt handle.
   */
  private async move(sk: string, from: string, to: string, visibleAtMs: number, changes: Record<string, unknown>): Promise<string | undefined> {
    const messageId = (sk.split('#')[1] ?? '').split(RECEIPT_SEPARATOR)[0] || randomUUID();
    const old = await db.send(new GetCommand({ TableName: tableName, Key: { pk: keys.localQueue(from), sk }, ConsistentRead: true }));
    const item = old.Item;
    if (!item) return undefined;
    // A fresh suffix: a message retried to the same millisecond still gets a new handle.
    const next = keys.localQueueMessage(to, visibleAtMs, `${messageId}${RECEIPT_SEPARATOR}${randomUUID().slice(0, 8)}`);
    try {
      await db.send(
        new TransactWriteCommand({
          TransactItems: [
            { Delete: { TableName: tableName, Key: { pk: keys.localQueue(from), sk }, ConditionExpression: 'attribute_exists(pk)' } },
            { Put: { TableName: tableName, Item: { ...item, ...changes, ...next } } },
          ],
        }),
      );
      return next.sk;
    } catch (error) {
      if (error instanceof TransactionCanceledException) return undefined;
      throw error;
    }
  }
}

