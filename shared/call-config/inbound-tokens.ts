import { captureValue, textMatches, tokenListValues, type MatchType } from './text-match.js';

/**
 * How an inbound call's configuration adds tokens to its data before routing (pure):
 * SIP header parsers read the incoming call's headers, then token matchers match the called
 * number, the caller number or a token and set theirs. Later sources win over earlier ones.
 */

/** Carrier form fields `SipHeader_<name>` of an incoming SIP call: at most 20, bounded names and values. */
export const SIP_HEADER_FIELD = 'SipHeader_';
const MAX_SIP_HEADERS = 20;
const MAX_SIP_HEADER_VALUE = 256;

export function sipHeaderFields(params: Readonly<Record<string, unknown>>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [field, value] of Object.entries(params)) {
    if (Object.keys(out).length >= MAX_SIP_HEADERS) break;
    if (!field.startsWith(SIP_HEADER_FIELD) || typeof value !== 'string') continue;
    const name = field.slice(SIP_HEADER_FIELD.length);
    if (!/^[A-Za-z][A-Za-z0-9_-]{0,63}$/.test(name)) continue;
    out[name.toLowerCase()] = value.slice(0, MAX_SIP_HEADER_VALUE);
  }
  return out;
}

export interface SipHeaderParser {
  id: number;
  header_name: string;
  token_name: string;
  pattern: string | null;
  enabled?: boolean;
}

/** Tokens the parsers take from `headers` (names lower-cased, as sipHeaderFields gives them); parsers in id order. */
export function parseSipTokens(parsers: readonly SipHeaderParser[], headers: Readonly<Record<string, string>>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const parser of [...parsers].sort((a, b) => a.id - b.id)) {
    if (parser.enabled === false) continue;
    const header = headers[parser.header_name.toLowerCase()];
    if (header === undefined) continue;
    const value = captureValue(parser.pattern, header);
    if (value !== undefined) out[parser.token_name] = value;
  }
  return out;
}

export interface TokenMatcher {
  id: number;
  enabled?: boolean;
  match_field: 'called_number' | 'caller_number' | 'token';
  match_token: string | null;
  match_type: MatchType;
  match_value: string;
  set_tokens: string | null;
  offer_id: number | null;
}

export interface CallFacts {
  called: string;
  caller: string | null;
  offerId: number | null;
}

/**
 * Applies the matchers (id order) to `tokens`: each enabled matcher of the call's offer (or of
 * every offer) whose field matches sets its tokens; a matcher on a token sees what earlier
 * matchers set.
 */
export function applyTokenMatchers(matchers: readonly TokenMatcher[], tokens: Readonly<Record<string, unknown>>, facts: CallFacts): Record<string, unknown> {
  let out: Record<string, unknown> = { ...tokens };
  for (const matcher of [...matchers].sort((a, b) => a.id - b.id)) {
    if (matcher.enabled === false) continue;
    if (matcher.offer_id !== null && matcher.offer_id !== facts.offerId) continue;
    const subject =
      matcher.match_field === 'called_number' ? facts.called : matcher.match_field === 'caller_number' ? facts.caller : tokenText(out[matcher.match_token ?? '']);
    if (textMatches(matcher.match_type, matcher.match_value, subject)) out = { ...out, ...tokenListValues(matcher.set_tokens) };
  }
  return out;
}

function tokenText(value: unknown): string | undefined {
  return typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean' ? String(value) : undefined;
}

export interface VisitorTokenMatcher {
  id: number;
  enabled?: boolean;
  param_name: string;
  match_type: MatchType;
  match_value: string;
  set_tokens: string | null;
  ring_pool_id: number | null;
}

/** Tokens the visitor matchers of a ring pool (or of every pool) set for a visitor's parameters, id order. */
export function visitorTokens(matchers: readonly VisitorTokenMatcher[], params: Readonly<Record<string, string>>, ringPoolId: number): Record<string, string> {
  let out: Record<string, string> = {};
  for (const matcher of [...matchers].sort((a, b) => a.id - b.id)) {
    if (matcher.enabled === false) continue;
    if (matcher.ring_pool_id !== null && matcher.ring_pool_id !== ringPoolId) continue;
    if (textMatches(matcher.match_type, matcher.match_value, params[matcher.param_name])) out = { ...out, ...tokenListValues(matcher.set_tokens) };
  }
  return out;
}
