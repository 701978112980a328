import type { Operation } from '../../shared/http/request.js';
import { readInboundSms, receiveInboundSms } from '../../shared/messaging/inbound-sms.js';
import { EMPTY_TWIML } from '../../shared/voice/twiml.js';
import { xml } from './twilio-operations.js';

/**
 * `sms`: a text reached a tracking number (the number's SmsUrl). Stored once as an
 * incoming_text_messages record with its event; always answered with the empty `<Response/>`
 * (no auto-reply), also for unknown numbers, duplicates and unusable fields, so the carrier
 * neither retries nor learns which numbers exist.
 */
export const inboundSms: Operation = async (request) => {
  const sms = readInboundSms(request.params);
  if (sms) await receiveInboundSms(sms, request.now);
  return xml(EMPTY_TWIML);
};
