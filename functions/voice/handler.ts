import { createRouteGroupHandler } from '../../shared/http/handler.js';
import { voiceRoutes } from '../../shared/http/routes/voice.js';
import { validCarrierSignature } from '../../shared/voice/carrier-auth.js';
import { lazyOperation } from '../../shared/http/lazy-operation.js';

/** The voice carrier's webhooks (signed by the carrier): every call's state machine is driven from here. */
export const handler = createRouteGroupHandler(
  'voice',
  voiceRoutes,
  {
    'voice.incoming': lazyOperation(async () => (await import('./twilio-operations.js')).incoming),
    'voice.dial_action': lazyOperation(async () => (await import('./twilio-operations.js')).dialAction),
    'voice.dial_status': lazyOperation(async () => (await import('./twilio-operations.js')).dialStatus),
    'voice.status': lazyOperation(async () => (await import('./twilio-operations.js')).callStatus),
    'voice.whisper': lazyOperation(async () => (await import('./twilio-operations.js')).whisper),
    'voice.whisper_result': lazyOperation(async () => (await import('./twilio-operations.js')).whisperResult),
    'voice.outbound_answer': lazyOperation(async () => (await import('./twilio-operations.js')).outboundAnswer),
    'voice.recording': lazyOperation(async () => (await import('./twilio-operations.js')).recording),
    'voice.router_answer': lazyOperation(async () => (await import('./call-config-operations.js')).routerAnswer),
    'voice.key_press': lazyOperation(async () => (await import('./call-config-operations.js')).keyPress),
    'voice.sms': lazyOperation(async () => (await import('./sms-operation.js')).inboundSms),
  },
  { carrierSignature: validCarrierSignature },
);
