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

/**
 * What fires an outgoing webhook: an event of the table above, `manual` (only a
 * webhook_manual_fire fires it) or `schedule_action` (a schedule's webhook action fires it).
 */
export const OUTGOING_WEBHOOK_TRIGGER_TYPES = [...EVENT_NAMES, 'manual', 'schedule_action'] as const;

export type OutgoingWebhookTriggerType = (typeof OUTGOING_WEBHOOK_TRIGGER_TYPES)[number];
