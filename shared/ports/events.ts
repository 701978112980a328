import type { EventName } from '../events/event-names.js';

/** A domain event (new_call, call_ended, ...) with the object it is about. */
export interface DomainEvent {
  /** Unique per event, so a consumer can drop a redelivered one. */
  id: string;
  name: EventName;
  companyId: number;
  occurredAt: string;
  /** The object as the API shows it (a call record). */
  data: Record<string, unknown>;
}

/**
 * Publishes domain events for delivery to subscriptions. AWS: an SQS queue (with a dead-letter
 * queue) that the delivery function reads; local and tests: a recorder.
 */
export interface EventsPort {
  publish(event: DomainEvent): Promise<void>;
}
