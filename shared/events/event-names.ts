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
