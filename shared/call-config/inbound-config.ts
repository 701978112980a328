import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from '../db/client.js';
import { keys } from '../db/keys.js';
import { queryAllRecords } from '../db/records.js';
import type { TokenValues } from '../routing/token-filters.js';
import { callerState } from './caller-state.js';
import { applyTokenMatchers, parseSipTokens, type SipHeaderParser, type TokenMatcher } from './inbound-tokens.js';
import { applicableStateLimits, type StateLimit } from './state-limits.js';

/**
 * The configuration an inbound call reads before routing (docs/call-configuration.md): token
 * matchers and state call limits (one Query each), the visitor tokens held with the called
 * number (one GetItem), and, only for a call that came with SIP headers, the parser groups and
 * parsers (one Query each). All in parallel, beside startCall's own reads.
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

/** The visitor tokens held with a ring pool number until `held_until` (visitor-numbers.ts writes them). */
async function heldVisitorTokens(companyId: number, number: string, at: Date): Promise<Record<string, unknown>> {
  const result = await db.send(new GetCommand({ TableName: tableName, Key: keys.visitorNumberHold(companyId, number) }));
  const item = result.Item;
  return item && typeof item.held_until === 'string' && Date.parse(item.held_until) > at.getTime() ? ((item.tokens as Record<string, unknown>) ?? {}) : {};
}

async function sipTokensOf(companyId: number, number: InboundNumber, headers: Readonly<Record<string, string>> | undefined): Promise<Record<string, string>> {
  if (!headers || Object.keys(headers).length === 0) return {};
  const [groups, parsers] = await Promise.all([queryAllRecords(companyId, 'sip_header_parser_groups'), queryAllRecords(companyId, 'sip_header_parsers')]);
  const attached = new Set(
    groups.filter((group) => group.enabled !== false && ((group.offer_id !== null && group.offer_id === number.offer_id) || group.phone_number_id === number.id)).map((group) => group.id),
  );
  return parseSipTokens((parsers as unknown as Array<SipHeaderParser & { sip_header_parser_group_id: number }>).filter((parser) => attached.has(parser.sip_header_parser_group_id)), headers);
}

export async function readInboundConfig(companyId: number, number: InboundNumber, sipHeaders: Readonly<Record<string, string>> | undefined, at: Date): Promise<InboundConfig> {
  const [matchers, stateLimits, visitorTokens, sipTokens] = await Promise.all([
    queryAllRecords(companyId, 'token_matchers'),
    queryAllRecords(companyId, 'state_call_limits'),
    heldVisitorTokens(companyId, number.number, at),
    sipTokensOf(companyId, number, sipHeaders),
  ]);
  return { matchers: matchers as unknown as TokenMatcher[], stateLimits, visitorTokens, sipTokens };
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
