import { keys } from '../db/keys.js';
import type { TokenValues } from '../routing/token-filters.js';
import { callerState } from './caller-state.js';
import { applyTokenMatchers, parseSipTokens, type SipHeaderParser, type TokenMatcher } from './inbound-tokens.js';
import { applicableStateLimits, type StateLimit } from './state-limits.js';

/**
 * The configuration an inbound call reads before routing (docs/call-configuration.md): token
 * matchers and state call limits, the visitor tokens held with the called number, and, only for
 * a call that came with SIP headers, the parser groups and parsers. Read with the call's other
 * keyed items in one round trip (shared/calls/call-start-reads.ts; inboundResources and
 * visitorHoldKey name what to read, inboundConfigFrom assembles it).
 */
export interface InboundConfig {
  matchers: TokenMatcher[];
  stateLimits: Record<string, unknown>[];
  visitorTokens: Record<string, unknown>;
  sipTokens: Record<string, string>;
}

export interface InboundNumber {
  id: number;
  number: string;
  offer_id: number | null;
}

/** The configuration resources an inbound call reads whole (the SIP parsers only for a call with SIP headers). */
export function inboundResources(sipHeaders: Readonly<Record<string, string>> | undefined): string[] {
  return ['token_matchers', 'state_call_limits', ...(hasHeaders(sipHeaders) ? ['sip_header_parser_groups', 'sip_header_parsers'] : [])];
}

/** The item holding the called number's visitor tokens (visitor-numbers.ts writes it). */
export function visitorHoldKey(companyId: number, number: InboundNumber) {
  return keys.visitorNumberHold(companyId, number.number);
}

const hasHeaders = (headers: Readonly<Record<string, string>> | undefined): headers is Readonly<Record<string, string>> => Boolean(headers && Object.keys(headers).length > 0);

/** The visitor tokens of a hold item as read, while it holds (until `held_until`). Pure. */
function heldVisitorTokens(item: Record<string, unknown> | undefined, at: Date): Record<string, unknown> {
  return item && typeof item.held_until === 'string' && Date.parse(item.held_until) > at.getTime() ? ((item.tokens as Record<string, unknown>) ?? {}) : {};
}

/** The SIP tokens of the parsers attached to the number or its offer. Pure. */
function sipTokensOf(number: InboundNumber, headers: Readonly<Record<string, string>> | undefined, groups: readonly Record<string, unknown>[], parsers: readonly Record<string, unknown>[]): Record<string, string> {
  if (!hasHeaders(headers)) return {};
  const attached = new Set(
    groups.filter((group) => group.enabled !== false && ((group.offer_id !== null && group.offer_id === number.offer_id) || group.phone_number_id === number.id)).map((group) => group.id),
  );
  return parseSipTokens((parsers as unknown as Array<SipHeaderParser & { sip_header_parser_group_id: number }>).filter((parser) => attached.has(parser.sip_header_parser_group_id)), headers);
}

/** The inbound configuration from what was read: `rows` of inboundResources, the visitor hold item. Pure. */
export function inboundConfigFrom(
  number: InboundNumber,
  sipHeaders: Readonly<Record<string, string>> | undefined,
  read: { rows: (resource: string) => Record<string, unknown>[]; visitorHold: Record<string, unknown> | undefined },
  at: Date,
): InboundConfig {
  return {
    matchers: read.rows('token_matchers') as unknown as TokenMatcher[],
    stateLimits: read.rows('state_call_limits'),
    visitorTokens: heldVisitorTokens(read.visitorHold, at),
    sipTokens: sipTokensOf(number, sipHeaders, read.rows('sip_header_parser_groups'), read.rows('sip_header_parsers')),
  };
}

/** The call's tokens: `base` (lead, reservation), then visitor tokens, SIP tokens, then the matchers' tokens. */
export function inboundTokens(base: TokenValues, config: InboundConfig | undefined, facts: { called: string; caller: string | null; offerId: number | null }): TokenValues {
  if (!config) return base;
  return applyTokenMatchers(config.matchers, { ...base, ...config.visitorTokens, ...config.sipTokens }, facts) as TokenValues;
}

/** The state call limits that apply to the call, with the caller's state (FromState, area code, else a `state` token). */
export function stateLimitsOfCall(config: InboundConfig, facts: { carrierState?: string | null; caller: string | null; tokens: TokenValues; offerId: number | null }): { state?: string; limits: StateLimit[] } {
  if (config.stateLimits.length === 0) return { limits: [] };
  const state = callerState({ carrierState: facts.carrierState, caller: facts.caller, tokens: facts.tokens });
  return { state, limits: applicableStateLimits(config.stateLimits, state, facts.offerId) };
}
