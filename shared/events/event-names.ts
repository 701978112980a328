import { EVENT_NAMES, type EventName } from '../ports/events.js';

// The event names are the events port's vocabulary (shared/ports/events.ts); re-exported for the domain code that reads them here.
export { EVENT_NAMES, type EventName };

/**
 * What fires an outgoing webhook: an event of the table above, `manual` (only a
 * webhook_manual_fire fires it) or `schedule_action` (a schedule's webhook action fires it).
 */
export const OUTGOING_WEBHOOK_TRIGGER_TYPES = [...EVENT_NAMES, 'manual', 'schedule_action'] as const;

export type OutgoingWebhookTriggerType = (typeof OUTGOING_WEBHOOK_TRIGGER_TYPES)[number];
