import { normalizeCallerNumber } from '../phone.js';
import type { BidHttpResponse } from '../ports/bidding.js';
import { BID_EXPIRY, type ResponsePathName, type RtbSettings } from './bid-settings.js';

/**
 * Reading a bidder's answer (docs/rtb.md, "Answers"): by default the widely used RTB shape
 * (`bidAmount`, `phoneNumber` | `phoneNumberNoPlus` | `sipAddress`, `expireInSeconds`, `bidId`,
 * `rejectReason`), or the buyer's own dot paths (`rtb_response_paths`). Anything else leaves the
 * bidder out with a reason; nothing here throws. Pure.
 */
export const LEFT_OUT_REASONS = [
  'refused',
  'timeout',
  'connection_error',
  'error_status',
  'invalid_answer',
  'rejected',
  'no_bid',
  'below_minimum',
  'no_number',
  'missing_secret',
  'invalid_request',
] as const;
export type LeftOutReason = (typeof LEFT_OUT_REASONS)[number];

export type BidOutcome =
  | { ok: true; amount: number; number: string | null; sip: string | null; expiresInSeconds: number; bidId: string | null }
  | { ok: false; reason: LeftOutReason; detail: string; amount?: number };

const DEFAULT_PATHS: Record<ResponsePathName, readonly string[]> = {
  bid: ['bidAmount'],
  number: ['phoneNumber', 'phoneNumberNoPlus'],
  sip: ['sipAddress'],
  expires_in: ['expireInSeconds'],
  bid_id: ['bidId'],
  reject_reason: ['rejectReason'],
};

const SIP_URI = /^sip:[^\s@]+(@[^\s@]+)?$/i;

/** The value at a dot path (names, or indexes into arrays); own properties only. */
export function valueAt(root: unknown, path: string): unknown {
  let value = root;
  for (const part of path.split('.')) {
    if (Array.isArray(value) && /^\d+$/.test(part)) value = value[Number(part)];
    else if (value && typeof value === 'object' && !Array.isArray(value) && Object.hasOwn(value, part)) value = (value as Record<string, unknown>)[part];
    else return undefined;
  }
  return value;
}

function pick(answer: unknown, settings: RtbSettings, name: ResponsePathName): unknown {
  const own = settings.paths[name];
  if (own) return valueAt(answer, own);
  for (const path of DEFAULT_PATHS[name]) {
    const value = valueAt(answer, path);
    if (value !== undefined && value !== null && value !== '') return value;
  }
  return undefined;
}

function amountOf(value: unknown): number | undefined {
  const amount = typeof value === 'number' ? value : typeof value === 'string' && /^\s*-?\d+(\.\d+)?\s*$/.test(value) ? Number(value) : NaN;
  return Number.isFinite(amount) && Math.abs(amount) < 1e9 ? Math.round(amount * 100) / 100 : undefined;
}

function textOf(value: unknown, max: number): string | null {
  return typeof value === 'string' || typeof value === 'number' ? String(value).slice(0, max) : null;
}

/** A number as a bidder writes it (with or without +, or as a JSON number) in E.164; undefined when it is none. */
export function bidNumber(value: unknown): string | undefined {
  const text = typeof value === 'number' ? String(value) : typeof value === 'string' ? value.trim() : '';
  if (!text || text.length > 40) return undefined;
  // Digits alone (phoneNumberNoPlus) read as North American first, then with a + before them.
  return normalizeCallerNumber(text) ?? (/^\d{8,15}$/.test(text) ? normalizeCallerNumber(`+${text}`) : undefined);
}

function sipOf(value: unknown): string | undefined {
  if (typeof value !== 'string' || value.length > 300) return undefined;
  const text = /^sip:/i.test(value.trim()) ? value.trim() : `sip:${value.trim()}`;
  return SIP_URI.test(text) ? text : undefined;
}

/** What an exchange with a bidder came to. */
export function readBidAnswer(settings: RtbSettings, response: BidHttpResponse): BidOutcome {
  if (response.refused) return { ok: false, reason: 'refused', detail: String(response.error ?? 'refused').slice(0, 200) };
  if (response.status === null) {
    const error = String(response.error ?? 'no answer');
    return { ok: false, reason: error.startsWith('timeout') ? 'timeout' : 'connection_error', detail: error.slice(0, 200) };
  }
  if (response.status < 200 || response.status >= 300) return { ok: false, reason: 'error_status', detail: `HTTP ${response.status}` };
  let answer: unknown;
  try {
    answer = JSON.parse(response.body);
  } catch {
    return { ok: false, reason: 'invalid_answer', detail: `not JSON: ${JSON.stringify(response.body.slice(0, 40))}` };
  }
  if (!answer || typeof answer !== 'object') return { ok: false, reason: 'invalid_answer', detail: 'not a JSON object or array' };
  const rejection = textOf(pick(answer, settings, 'reject_reason'), 200);
  const amount = amountOf(pick(answer, settings, 'bid'));
  if (rejection && !amount) return { ok: false, reason: 'rejected', detail: rejection };
  if (amount === undefined || amount <= 0) return { ok: false, reason: 'no_bid', detail: 'the answer holds no bid above 0' };
  if (settings.minBid !== null && amount < settings.minBid) return { ok: false, reason: 'below_minimum', detail: `${amount} is below rtb_min_bid ${settings.minBid}`, amount };
  const rawNumber = pick(answer, settings, 'number');
  const number = rawNumber === undefined ? undefined : bidNumber(rawNumber);
  const sip = number ? undefined : sipOf(pick(answer, settings, 'sip'));
  if (!number && !sip) {
    return { ok: false, reason: 'no_number', detail: rawNumber === undefined ? 'the answer names no number or SIP address' : 'the number is not a phone number', amount };
  }
  const expires = amountOf(pick(answer, settings, 'expires_in'));
  return {
    ok: true,
    amount,
    number: number ?? null,
    sip: sip ?? null,
    expiresInSeconds: expires !== undefined && expires > 0 ? Math.min(BID_EXPIRY.maxSeconds, Math.max(1, Math.floor(expires))) : BID_EXPIRY.defaultSeconds,
    bidId: textOf(pick(answer, settings, 'bid_id'), 100),
  };
}
