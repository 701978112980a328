import { API, type RouteDefinition } from '../route-definition.js';

/** The voice carrier's webhooks (Twilio-compatible), authorised by its request signature. */
export const voiceRoutes: readonly RouteDefinition[] = (
  ['incoming', 'dial_action', 'dial_status', 'status', 'whisper', 'whisper_result', 'outbound_answer', 'recording', 'router_answer', 'key_press', 'sms'] as const
).map((step): RouteDefinition => ({ method: 'POST', path: `${API}/voice/twilio/${step}`, group: 'voice', auth: 'carrier', operation: `voice.${step}` }));
