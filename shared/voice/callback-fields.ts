import type { Params } from '../http/request.js';

/**
 * Reading the fields of a carrier callback defensively. The ids in our own callback URLs are
 * signed by the carrier, but a signature only proves who sent a request, not that its values are
 * sane: a replayed, hand-made or buggy callback may name nothing, garbage, or something huge.
 * These readers turn anything that cannot name a call into `undefined`, so the webhooks answer
 * neutral TwiML instead of failing (a failed callback makes the carrier retry and play an error).
 * Pure.
 */

/** Ids are at most 16 digits (keys pad them to 16), positive and safe integers. */
const ID_TEXT = /^\d{1,16}$/;

/** A positive safe integer id from a callback field, or undefined. */
export function callbackId(value: unknown): number | undefined {
  if (typeof value !== 'string' || !ID_TEXT.test(value)) return undefined;
  const id = Number(value);
  return Number.isSafeInteger(id) && id > 0 ? id : undefined;
}

export interface CallbackIds {
  companyId: number;
  callId: number;
  attempt: number;
}

/** `company`, `call` and `attempt` of a dial callback URL; undefined unless all three are ids. */
export function callbackIds(params: Params): CallbackIds | undefined {
  const companyId = callbackId(params.company);
  const callId = callbackId(params.call);
  const attempt = callbackId(params.attempt);
  return companyId !== undefined && callId !== undefined && attempt !== undefined ? { companyId, callId, attempt } : undefined;
}

/**
 * Carrier call ids: Twilio's are `CA` + 32 hex digits, other Twilio-compatible carriers use
 * uuids or `v3:`-prefixed tokens. 128 printable characters cover them all and keep the lookup
 * key far below DynamoDB's 2 KB key limit.
 */
const CARRIER_CALL_ID = /^[\x21-\x7e]{1,128}$/;

export function carrierCallId(value: unknown): string | undefined {
  return typeof value === 'string' && CARRIER_CALL_ID.test(value) ? value : undefined;
}

/** A text field, or '' when absent, not text, or longer than `max` (then it is not trusted at all). */
export function textField(params: Params, name: string, max = 64): string {
  const value = params[name];
  return typeof value === 'string' && value.length <= max ? value : '';
}

/** A whole non-negative number of seconds (durations), 0 for anything else; at most a day. */
export function secondsField(params: Params, name: string): number {
  const value = params[name];
  if (typeof value !== 'string' || !/^\d{1,6}$/.test(value)) return 0;
  return Math.min(Number(value), 86_400);
}
