import type { DomainEvent } from '../ports/events.js';

/** The kind of object each event is about (the payload's `object`). */
export function objectKindOf(eventName: string): string {
  if (eventName.startsWith('lead_') || eventName === 'new_lead') return 'lead';
  if (eventName === 'incoming_text_message') return 'incoming_text_message';
  return 'call';
}

/**
 * The JSON body POSTed to a subscription's target_url (docs/events.md): the Standard Webhooks
 * shape (`type`, `timestamp`, `data`) plus the event id (also the `webhook-id` header, stable
 * across retries), the company and the kind of object. `data` is the object as the API shows it
 * when the event happened. Pure.
 */
export function eventPayload(event: DomainEvent): string {
  return JSON.stringify({
    id: event.id,
    type: event.name,
    timestamp: event.occurredAt,
    company_id: event.companyId,
    object: objectKindOf(event.name),
    data: event.data,
  });
}
