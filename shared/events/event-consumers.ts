import { keys, type Key } from '../db/keys.js';
import { getItems } from '../db/records.js';
import type { QueueMessage } from '../ports/events.js';

/**
 * What receives a company's events: its subscriptions (by event name) and its outgoing webhooks
 * (by trigger type), the delivery function's fan-out (delivery.ts). A company with neither has
 * nobody to deliver an event to, so a change of such a company stages no event in the outbox: no
 * outbox item (2 write units in the change's transaction), no delete of it, no queue messages.
 * Whether it has any is read from the two resources' record counts (their sequence items, moved by
 * createRecord and deleteRecord in their own transactions) by key, beside what the change reads
 * anyway (docs/events.md, "Events nobody receives"). A disabled subscription still counts: the
 * question is only whether to stage, and the fan-out decides who gets what.
 */
const CONSUMER_RESOURCES = ['subscriptions', 'outgoing_webhooks'] as const;

/** The items whose record counts say whether the company has event consumers. */
export function eventConsumerKeys(companyId: number): Key[] {
  return CONSUMER_RESOURCES.map((resource) => keys.sequence(companyId, resource));
}

/** Whether the items read at eventConsumerKeys count any record (absent items count none). Pure. */
export function countsEventConsumers(items: ReadonlyArray<Record<string, unknown> | undefined>): boolean {
  return items.some((item) => Number(item?.count ?? 0) > 0);
}

/**
 * The item at `key` (a record a change is about to decide from) and whether its company has event
 * consumers, in one BatchGetItem, strongly consistent; `item` undefined when absent.
 */
export async function readWithEventConsumers(companyId: number, key: Key): Promise<{ item: Record<string, unknown> | undefined; consumers: boolean }> {
  const consumerKeys = eventConsumerKeys(companyId);
  const items = await getItems([key, ...consumerKeys], { consistent: true });
  const at = (wanted: Key) => items.find((item) => item.pk === wanted.pk && item.sk === wanted.sk);
  return { item: at(key), consumers: countsEventConsumers(consumerKeys.map(at)) };
}

/** Reads whether the company has event consumers, for a change that reads nothing else first (one BatchGetItem). */
export async function hasEventConsumers(companyId: number, options: { consistent?: boolean } = {}): Promise<boolean> {
  return countsEventConsumers(await getItems(eventConsumerKeys(companyId), options));
}

/** The messages a change stages: its events only when the company has consumers, its other messages (webhook sends, e-mails) always. Pure. */
export function messagesToStage(messages: readonly QueueMessage[], consumers: boolean): QueueMessage[] {
  return consumers ? [...messages] : messages.filter((message) => message.kind !== 'event');
}
