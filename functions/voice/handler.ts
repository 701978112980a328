import { createRouteGroupHandler } from '../../shared/http/handler.js';
import { keyPress, routerAnswer } from './call-config-operations.js';
import { callStatus, dialAction, dialStatus, incoming, outboundAnswer, whisper, whisperResult } from './twilio-operations.js';

/** The voice carrier's webhooks: every call's state machine is driven from here. */
export const handler = createRouteGroupHandler('voice', {
  'voice.incoming': incoming,
  'voice.dial_action': dialAction,
  'voice.dial_status': dialStatus,
  'voice.status': callStatus,
  'voice.whisper': whisper,
  'voice.whisper_result': whisperResult,
  'voice.outbound_answer': outboundAnswer,
  'voice.router_answer': routerAnswer,
  'voice.key_press': keyPress,
});
