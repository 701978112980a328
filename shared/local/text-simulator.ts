import { randomBytes } from 'node:crypto';
import { twilioSignature } from '../voice/twilio-signature.js';

/**
 * Plays the carrier's inbound-SMS webhook (Twilio's Messaging webhook) against a running service:
 * one signed POST to `/api/v1/voice/twilio/sms`, as a text to a tracking number would make.
 * `npm run text` and the tests use it.
 */
export interface SimulatedText {
  baseUrl: string;
  authToken: string;
  from: string;
  to: string;
  body: string;
  /** Media URLs (MMS), sent as NumMedia and MediaUrl0... */
  mediaUrls?: string[];
  /** The carrier's message id; a new one by default (the same one again is a retried webhook). */
  messageSid?: string;
  /** A signature to send instead of the right one (null: none), to try the webhook's guard. */
  signature?: string | null;
}

export interface SimulatedTextResult {
  messageSid: string;
  status: number;
  response: string;
}

export const newMessageSid = () => `SM${randomBytes(16).toString('hex')}`;

export async function simulateText(options: SimulatedText): Promise<SimulatedTextResult> {
  const messageSid = options.messageSid ?? newMessageSid();
  const url = `${options.baseUrl.replace(/\/$/, '')}/api/v1/voice/twilio/sms`;
  const media = options.mediaUrls ?? [];
  const fields: Record<string, string> = {
    MessageSid: messageSid,
    SmsSid: messageSid,
    AccountSid: 'ACsimulator',
    From: options.from,
    To: options.to,
    Body: options.body,
    NumMedia: String(media.length),
    ...Object.fromEntries(media.map((mediaUrl, index) => [`MediaUrl${index}`, mediaUrl])),
  };
  const headers: Record<string, string> = { 'content-type': 'application/x-www-form-urlencoded' };
  const signature = options.signature === undefined ? twilioSignature(options.authToken, url, fields) : options.signature;
  if (signature !== null) headers['x-twilio-signature'] = signature;
  const response = await fetch(url, { method: 'POST', headers, body: new URLSearchParams(fields).toString() });
  return { messageSid, status: response.status, response: await response.text() };
}
