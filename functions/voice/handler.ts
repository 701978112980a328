import { createRouteGroupHandler } from '../../shared/http/handler.js';
import { voiceRoutes } from '../../shared/http/routes/voice.js';
import { validCarrierSignature } from '../../shared/voice/carrier-auth.js';
import { callStatus, dialAction, dialStatus, incoming, outboundAnswer, recording, whisper, whisperResult } from './twilio-operations.js';
import { keyPress, routerAnswer } from './call-config-operations.js';
import { inboundSms } from './sms-operation.js';

/** The voice carrier's webhooks (signed by the carrier): every call's state machine is driven from here. */
export const handler = createRouteGroupHandler(
  'voice',
  voiceRoutes,
  {
    'voice.incoming': incoming,
    'voice.dial_action': dialAction,
    'voice.dial_status': dialStatus,
    'voice.status': callStatus,
    'voice.whisper': whisper,
    'voice.whisper_result': whisperResult,
    'voice.outbound_answer': outboundAnswer,
    'voice.recording': recording,
    'voice.router_answer': routerAnswer,
    'voice.key_press': keyPress,
    'voice.sms': inboundSms,
  },
  { carrierSignature: validCarrierSignature },
);
