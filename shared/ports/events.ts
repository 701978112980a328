import type { EmailMessage } from './email.js';

/** The events a subscription can name (the reference's Events table). */
export const EVENT_NAMES = [
  'new_call',
  'call_ringing',
  'call_forwarded',
  'call_ended',
  'call_changed',
  'new_lead',
  'lead_ended',
  'lead_converted',
  'lead_opted_out',
  'lead_changed',
  'incoming_text_message',
] as const;

export type EventName = (typeof EVENT_NAMES)[number];

/** A domain event (new_call, call_ended, ...) with the object it is about. */
export interface DomainEvent {
  /** Unique per event and stable across retries, so a receiver can drop a redelivered one. */
  id: string;
  name: EventName;
  companyId: number;
  occurredAt: string;
  /** The object as the API shows it (a call record). */
  data: Record<string, unknown>;
}

/** What fires an outgoing webhook: an event of the company or a manual fire, and the tokens its templates read. */
export interface WebhookSource {
  event: string | null;
  eventId: string | null;
  fireId: number | null;
  callId: number | null;
  leadId: number | null;
  tokens: Record<string, unknown>;
}

/**
 * Work the delivery function does, one queue message each. `id` is stable across re-publishing
 * and redelivery: it keys the delivery's idempotency claim, so each one is sent once.
 * - `event`: a domain event to fan out to the matching subscriptions and outgoing webhooks;
 * - `delivery`: one event to one subscription (retried on its own schedule);
 * - `webhook`: one outgoing webhook URL to send (event-triggered or a manual fire);
 * - `email`: an e-mail to send (team invitations), moved out of the request by the outbox.
 */
export type QueueMessage =
  | { kind: 'event'; id: string; companyId: number; event: DomainEvent }
  | { kind: 'delivery'; id: string; companyId: number; event: DomainEvent; subscriptionId: number }
  | { kind: 'webhook'; id: string; companyId: number; outgoingWebhookId: number; urlId: number; source: WebhookSource }
  | { kind: 'email'; id: string; companyId: number; email: EmailMessage };

/**
 * One outbox item's messages in one queue message (shared/events/outbox.ts): its receipt proves
 * every message of the item reached the queue, so the consumer deletes the item. `id` is derived
 * from the item's key: a re-sent envelope has the same id. `key` is the item's table key.
 */
export interface OutboxEnvelope {
  kind: 'outbox';
  id: string;
  companyId: number;
  key: { pk: string; sk: string };
  messages: QueueMessage[];
}

/** What the events queue carries: a piece of work, or an outbox item's work in an envelope. */
export type EventQueueMessage = QueueMessage | OutboxEnvelope;

/**
 * The queue between the outbox and the delivery function. AWS: SQS (a redrive policy moves a
 * message to the dead-letter queue after its last receive); local and tests: a queue kept in the
 * table with the same semantics (shared/adapters/local/table-queue.ts).
 */
export interface EventQueuePort {
  /** Sends messages (any number; batched as the queue allows). */
  send(messages: readonly EventQueueMessage[], delaySeconds?: number): Promise<void>;
  /** A received message that failed becomes visible again after `seconds` (its next attempt). */
  retryLater(receiptHandle: string, seconds: number): Promise<void>;
}
