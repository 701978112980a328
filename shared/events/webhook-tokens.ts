import { objectKindOf } from './payload.js';

/**
 * The tokens an outgoing webhook's URL, headers and body templates read (`{{token}}`), for an
 * object (a call now, a lead later): its data tokens (first_name, zip...), then its own scalar
 * fields (id, caller_number, offer_id...), which win, so a client's data cannot pass itself off
 * as an id; plus `<object>_id` and the event. Pure.
 */
export function webhookTokens(eventName: string | null, eventId: string | null, object: Record<string, unknown>, objectKind?: string): Record<string, unknown> {
  const kind = objectKind ?? (eventName ? objectKindOf(eventName) : 'call');
  const data = object.data && typeof object.data === 'object' && !Array.isArray(object.data) ? (object.data as Record<string, unknown>) : {};
  const fields = Object.fromEntries(Object.entries(object).filter(([, value]) => value === null || ['string', 'number', 'boolean'].includes(typeof value)));
  return { ...data, ...fields, [`${kind}_id`]: object.id ?? null, event: eventName, event_id: eventId };
}
