import { randomUUID } from 'node:crypto';
import { ConflictError } from '../http/errors.js';
import type { Params } from '../http/request.js';
import { nextId, createRecord, type StoredRecord } from '../db/records.js';
import { hasEventConsumers, messagesToStage } from '../events/event-consumers.js';
import { stageMessages, publishStaged } from '../events/outbox.js';
import { findNumber } from '../numbers/lookup.js';
import { normalizeCallerNumber } from '../phone.js';
import type { QueueMessage } from '../ports/events.js';
import { lookupsOf } from '../resources/engine.js';
import { incomingTextMessages } from './incoming-text-messages-resource.js';
import { serializeRecord } from '../resources/serialize.js';
import { carrierCallId, textField } from '../voice/callback-fields.js';

/**
 * Text messages callers send to a tracking number (docs/resources.md, "Incoming text messages"):
 * the carrier's inbound-SMS webhook (Twilio's Messaging webhook: MessageSid, From, To, Body,
 * NumMedia, MediaUrl0...) becomes an incoming_text_messages record of the number's company, and
 * the `incoming_text_message` event is staged in the record's own transaction (outbox).
 */

/** A text is at most 1,600 characters at Twilio (10 segments); longer bodies are trimmed, not refused. */
export const MAX_BODY_CHARS = 1600;
/** Twilio sends at most 10 media items per message. */
export const MAX_MEDIA = 10;
export const MAX_MEDIA_URL_CHARS = 1000;

/**
 * Keywords carriers treat as an opt-out (CTIA; Twilio's default opt-out keywords), as the whole
 * message, any case. Twilio itself stops further texts to the sender; the record says so.
 */
export const OPT_OUT_KEYWORDS = ['stop', 'stopall', 'unsubscribe', 'cancel', 'end', 'quit', 'optout', 'revoke'] as const;

export interface InboundSms {
  messageSid: string;
  from: string;
  to: string;
  body: string;
  mediaUrls: string[];
}

/** The carrier's fields, bounded; undefined without a usable MessageSid (nothing to store). Pure. */
export function readInboundSms(params: Params): InboundSms | undefined {
  const messageSid = carrierCallId(params.MessageSid ?? params.SmsSid);
  if (!messageSid) return undefined;
  const rawBody = typeof params.Body === 'string' ? params.Body : '';
  const count = /^\d{1,2}$/.test(String(params.NumMedia ?? '')) ? Math.min(Number(params.NumMedia), MAX_MEDIA) : 0;
  const mediaUrls: string[] = [];
  for (let index = 0; index < count; index++) {
    const url = textField(params, `MediaUrl${index}`, MAX_MEDIA_URL_CHARS);
    if (/^https?:\/\//i.test(url)) mediaUrls.push(url);
  }
  return {
    messageSid,
    from: textField(params, 'From'),
    to: textField(params, 'To'),
    body: [...rawBody].slice(0, MAX_BODY_CHARS).join(''),
    mediaUrls,
  };
}

/** The opt-out keyword the text is, lower case, or null. Pure. */
export function optOutKeyword(body: string): string | null {
  const word = body.trim().toLowerCase();
  return (OPT_OUT_KEYWORDS as readonly string[]).includes(word) ? word : null;
}

export type InboundSmsOutcome = 'stored' | 'duplicate' | 'unknown_number';

/**
 * Stores a text to a tracking number with its event, once per carrier message: a retried webhook
 * (same MessageSid) finds the global lookup taken and stores nothing. One GetItem (the number),
 * the id's UpdateItem beside the event consumer counts' BatchGetItem, then one transaction
 * (record, lookup, count, and the outbox item when the company has event consumers).
 */
export async function receiveInboundSms(sms: InboundSms, now: Date): Promise<{ outcome: InboundSmsOutcome; companyId?: number; id?: number }> {
  const number = await findNumber(sms.to.trim());
  if (!number) return { outcome: 'unknown_number' };
  const companyId = number.company_id;
  const caller = normalizeCallerNumber(sms.from) ?? null;
  const keyword = optOutKeyword(sms.body);
  const at = now.toISOString();
  // The record's id, and beside it whether anything receives the company's events (event-consumers.ts).
  const [id, consumers] = await Promise.all([nextId(companyId, incomingTextMessages.name), hasEventConsumers(companyId)]);
  const record: StoredRecord = {
    company_id: companyId,
    id,
    uuid: randomUUID(),
    created_at: at,
    updated_at: at,
    phone_number_id: number.id,
    offer_id: number.offer_id,
    // An unreadable sender (a short code, garbage) is kept as sent, bounded by textField.
    from: caller ?? (sms.from || null),
    to: number.number,
    body: sms.body,
    num_media: sms.mediaUrls.length,
    media_urls: sms.mediaUrls,
    carrier: 'twilio',
    carrier_message_id: sms.messageSid,
    received_at: at,
    // A contact is one caller number of the company (GET /api/v1/contacts/:caller_id).
    contact_id: caller,
    opt_out: keyword !== null,
    opt_out_keyword: keyword,
  };
  const eventId = randomUUID();
  const message: QueueMessage = {
    kind: 'event',
    id: eventId,
    companyId,
    event: { id: eventId, name: 'incoming_text_message', companyId, occurredAt: at, data: serializeRecord(incomingTextMessages, record) },
  };
  const { writes, staged } = stageMessages(companyId, messagesToStage([message], consumers), now);
  try {
    await createRecord(companyId, incomingTextMessages.name, record, lookupsOf(incomingTextMessages, companyId, record), writes);
  } catch (error) {
    if (error instanceof ConflictError) return { outcome: 'duplicate', companyId };
    throw error;
  }
  await publishStaged(staged);
  return { outcome: 'stored', companyId, id: record.id };
}
