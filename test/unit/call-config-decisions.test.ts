import { describe, expect, it } from 'vitest';
import { inboundConfigFrom, inboundResources, inboundTokens, stateLimitsOfCall, visitorHoldKey, type InboundConfig } from '../../shared/call-config/inbound-config.js';
import { callerState } from '../../shared/call-config/caller-state.js';
import { applyTokenMatchers, parseSipTokens, sipHeaderFields, visitorTokens, type TokenMatcher } from '../../shared/call-config/inbound-tokens.js';
import { chosenRouterId, decideMenu, isLiveRouter, matchAnswer, type MenuAnswer } from '../../shared/call-config/router-matching.js';
import { applicableStateLimits, utcDay } from '../../shared/call-config/state-limits.js';
import { boundSubject, captureValue, patternProblem, PATTERN_LIMITS, renderTemplate, textMatches, tokenListValues } from '../../shared/call-config/text-match.js';
import { keys } from '../../shared/db/keys.js';

// The pure decisions of call configuration (docs/call-configuration.md) at the edges the
// mutation run (docs/testing.md) showed were not pinned.

describe('which call router a call reads', () => {
  it("takes the tracking number's router over its offer's, else the offer's, else none", () => {
    expect(chosenRouterId({ byNumber: { id: 4 }, byOffer: { id: 9 } })).toBe(4);
    expect(chosenRouterId({ byOffer: { id: 9 } })).toBe(9);
    expect(chosenRouterId({ byNumber: { id: '12' } })).toBe(12);
    expect(chosenRouterId({})).toBeUndefined();
  });

  it('uses a router unless it is disabled', () => {
    expect(isLiveRouter({ enabled: true })).toBe(true);
    expect(isLiveRouter({})).toBe(true);
    expect(isLiveRouter({ enabled: false })).toBe(false);
  });
});

describe('a menu answer', () => {
  const answers: MenuAnswer[] = [
    { id: 1, digits: '#', speech_keywords: ['', 42, 'sales team'] },
    { id: 2, digits: 5, speech_keywords: 'support' },
    { id: 3, digits: '5', speech_keywords: ['Support!'] },
  ];
  it('counts a lone # as the key pressed, trims keys, and compares string digits only', () => {
    expect(matchAnswer(answers, { digits: '#', speech: '' })?.id).toBe(1);
    expect(matchAnswer(answers, { digits: ' 5 ', speech: '' })?.id).toBe(3);
    expect(matchAnswer(answers, { digits: '5##', speech: '' })).toBeUndefined();
  });

  it('matches words only from a keyword list, ignoring blank and non-text keywords', () => {
    expect(matchAnswer(answers, { digits: '', speech: 'the sales   team, please' })?.id).toBe(1);
    expect(matchAnswer(answers, { digits: '', speech: 'SUPPORT' })?.id).toBe(3);
    expect(matchAnswer(answers, { digits: '', speech: '42' })).toBeUndefined();
    expect(matchAnswer(answers, { digits: '', speech: '?!' })).toBeUndefined();
    // Keys that match nothing fall back to what was said.
    expect(matchAnswer(answers, { digits: '9', speech: 'support' })?.id).toBe(3);
  });

  it('drops only a trailing #, splits words at punctuation, and compares in lower case', () => {
    const menu: MenuAnswer[] = [
      { id: 1, digits: '5', speech_keywords: ['sales team'] },
      { id: 2, digits: '', speech_keywords: ['straße'] },
    ];
    expect(matchAnswer(menu, { digits: '5#', speech: '' })?.id).toBe(1);
    expect(matchAnswer(menu, { digits: '#5', speech: '' })).toBeUndefined();
    expect(matchAnswer(menu, { digits: '', speech: 'sales-team' })?.id).toBe(1);
    // No keys pressed never matches an answer by its (empty) digits.
    expect(matchAnswer(menu, { digits: '', speech: 'hello' })).toBeUndefined();
    // Lower case, not upper: "ß" upper-cases to "SS", which would make "strasse" a match.
    expect(matchAnswer(menu, { digits: '', speech: 'Straße' })?.id).toBe(2);
    expect(matchAnswer(menu, { digits: '', speech: 'strasse' })).toBeUndefined();
  });

  it('repeats while the plays after the first stay under the maximum, calling blank input no input', () => {
    const none = { digits: '  ', speech: ' ' };
    expect(decideMenu(answers, undefined, none, 0, 1)).toEqual({ kind: 'repeat', repeats: 1, reason: 'no_input' });
    expect(decideMenu(answers, undefined, none, 1, 1)).toEqual({ kind: 'hangup', reason: 'no_input' });
    expect(decideMenu(answers, undefined, { digits: '', speech: 'hello' }, 0, 1)).toEqual({ kind: 'repeat', repeats: 1, reason: 'invalid_input' });
    expect(decideMenu(answers, { id: 8 }, { digits: '7', speech: '' }, 3, 3)).toEqual({ kind: 'answer', answer: { id: 8 }, by: 'default' });
  });
});

describe('state call limits', () => {
  const limit = { id: 1, state: 'CA', offer_id: null, concurrent_limit: 1, daily_limit: null };
  it('apply to every offer when they name none, and only to theirs when they name one', () => {
    expect(applicableStateLimits([limit], 'CA', null)).toHaveLength(1);
    expect(applicableStateLimits([{ ...limit, offer_id: 3 }], 'CA', null)).toEqual([]);
    expect(applicableStateLimits([{ ...limit, offer_id: 3 }], 'CA', 3)).toHaveLength(1);
    expect(applicableStateLimits([limit], 'NV', null)).toEqual([]);
    expect(applicableStateLimits([limit], '', null)).toEqual([]);
    // A caller whose state is unknown is under no limit, whatever the stored rows hold.
    expect(applicableStateLimits([{ ...limit, state: '' }], '', null)).toEqual([]);
    expect(applicableStateLimits([{ ...limit, enabled: false }], 'CA', null)).toEqual([]);
  });

  it('count per UTC day', () => {
    expect(utcDay(new Date('2026-11-28T23:59:59-05:00'))).toBe('2026-11-29');
    expect(utcDay(new Date('2026-11-28T00:00:00Z'))).toBe('2026-11-28');
  });

  it("of a call: none read, none applied; else the caller's state and its limits", () => {
    const config: InboundConfig = { matchers: [], stateLimits: [], visitorTokens: {}, sipTokens: {} };
    expect(stateLimitsOfCall(config, { carrierState: 'CA', caller: null, tokens: {}, offerId: null })).toEqual({ limits: [] });
    const withLimit = { ...config, stateLimits: [limit] };
    expect(stateLimitsOfCall(withLimit, { carrierState: 'ca', caller: null, tokens: {}, offerId: null })).toEqual({ state: 'CA', limits: [limit] });
    expect(stateLimitsOfCall(withLimit, { caller: '+12125550100', tokens: { state: 'CA' }, offerId: null })).toEqual({ state: 'NY', limits: [] });
    expect(stateLimitsOfCall(withLimit, { caller: null, tokens: { state: 'CA' }, offerId: null })).toEqual({ state: 'CA', limits: [limit] });
  });
});

describe('the inbound configuration of a call', () => {
  const number = { id: 5, number: '+18005550100', offer_id: 7 };
  const rows = (table: Record<string, Record<string, unknown>[]>) => (resource: string) => table[resource] ?? [];
  const at = new Date('2026-11-28T12:00:00Z');

  it('reads the SIP parsers only for a call that came with SIP headers', () => {
    expect(inboundResources(undefined)).toEqual(['token_matchers', 'state_call_limits']);
    expect(inboundResources({})).toEqual(['token_matchers', 'state_call_limits']);
    expect(inboundResources({ 'x-a': '1' })).toEqual(['token_matchers', 'state_call_limits', 'sip_header_parser_groups', 'sip_header_parsers']);
    expect(visitorHoldKey(3, number)).toEqual(keys.visitorNumberHold(3, '+18005550100'));
  });

  it("keeps a visitor's tokens only while the hold lasts", () => {
    const read = (visitorHold: Record<string, unknown> | undefined) => inboundConfigFrom(number, undefined, { rows: rows({}), visitorHold }, at).visitorTokens;
    expect(read({ held_until: '2026-11-28T12:00:01Z', tokens: { a: '1' } })).toEqual({ a: '1' });
    expect(read({ held_until: '2026-11-28T12:00:00Z', tokens: { a: '1' } })).toEqual({});
    expect(read({ held_until: 1_900_000_000_000, tokens: { a: '1' } })).toEqual({});
    expect(read({ held_until: '2026-11-28T13:00:00Z' })).toEqual({});
    expect(read(undefined)).toEqual({});
  });

  it("parses SIP headers with the enabled groups of the number or of its offer", () => {
    const table = {
      token_matchers: [{ id: 1 }],
      state_call_limits: [{ id: 2 }],
      sip_header_parser_groups: [
        { id: 10, offer_id: 7, phone_number_id: null },
        { id: 11, offer_id: null, phone_number_id: 5 },
        { id: 12, offer_id: 7, phone_number_id: null, enabled: false },
        { id: 13, offer_id: null, phone_number_id: 6 },
      ],
      sip_header_parsers: [
        { id: 1, sip_header_parser_group_id: 10, header_name: 'X-A', token_name: 'a', pattern: null },
        { id: 2, sip_header_parser_group_id: 11, header_name: 'X-B', token_name: 'b', pattern: null },
        { id: 3, sip_header_parser_group_id: 12, header_name: 'X-C', token_name: 'c', pattern: null },
        { id: 4, sip_header_parser_group_id: 13, header_name: 'X-D', token_name: 'd', pattern: null },
      ],
    };
    const headers = { 'x-a': '1', 'x-b': '2', 'x-c': '3', 'x-d': '4' };
    const config = inboundConfigFrom(number, headers, { rows: rows(table), visitorHold: undefined }, at);
    expect(config).toEqual({ matchers: [{ id: 1 }], stateLimits: [{ id: 2 }], visitorTokens: {}, sipTokens: { a: '1', b: '2' } });
    // A number without an offer does not take the groups of "no offer".
    const groupWithoutOffer = { ...table, sip_header_parser_groups: [{ id: 10, offer_id: null, phone_number_id: null }] };
    expect(inboundConfigFrom({ ...number, offer_id: null }, headers, { rows: rows(groupWithoutOffer), visitorHold: undefined }, at).sipTokens).toEqual({});
    expect(inboundConfigFrom(number, {}, { rows: rows(table), visitorHold: undefined }, at).sipTokens).toEqual({});
  });

  it('gives the tokens: base, then visitor, then SIP, then the matchers, later ones winning', () => {
    const facts = { called: '+18005550100', caller: null, offerId: null };
    expect(inboundTokens({ a: '1' }, undefined, facts)).toEqual({ a: '1' });
    const config: InboundConfig = {
      matchers: [{ id: 1, match_field: 'called_number', match_token: null, match_type: 'exact', match_value: '+18005550100', set_tokens: 'd:matcher', offer_id: null }],
      stateLimits: [],
      visitorTokens: { a: 'visitor', b: 'visitor', c: 'visitor' },
      sipTokens: { b: 'sip', d: 'sip' },
    };
    expect(inboundTokens({ a: 'base', z: 'base' }, config, facts)).toEqual({ a: 'visitor', b: 'sip', c: 'visitor', d: 'matcher', z: 'base' });
  });
});

describe('text matching', () => {
  it('refuses a pattern exactly one character over the limit, not at it', () => {
    expect(patternProblem('a'.repeat(PATTERN_LIMITS.patternLength))).toBeUndefined();
    expect(patternProblem('a'.repeat(PATTERN_LIMITS.patternLength + 1))).toBeDefined();
    expect(PATTERN_LIMITS).toEqual({ patternLength: 200, subjectLength: 256 });
  });

  it('refuses each unbounded construct, and accepts the harmless shapes close to them', () => {
    for (const refused of ['\\2', '\\k<name>', '(?!a)', '(?<=a)b', '(?<!a)b', '(a*)+', '(a+)*', '(a{2})+', '(a+){3}', '(a{1,}){2}', '(\\(a+)+', '(a|b)*', '(a|b){1,}'])
      expect(patternProblem(refused), refused).toBeDefined();
    for (const accepted of ['\\0', '(?:a)+', '(?<name>a)', '(a)+', '(ab){2}', '(a|b){2}', '(a|b)?', 'a+b*', '(a)(b+)', '[(]a+[)]'])
      expect(patternProblem(accepted), accepted).toBeUndefined();
  });

  it('sees at most the first 256 characters of a subject', () => {
    const subject = 'x'.repeat(300);
    expect(boundSubject(subject)).toHaveLength(256);
    expect(textMatches('regex', '^x{256}$', subject)).toBe(true);
    expect(textMatches('regex', 'x{257}', subject)).toBe(false);
    expect(textMatches('exact', 'a', undefined)).toBe(false);
    expect(textMatches('regex', 'a', null)).toBe(false);
    expect(captureValue('', 'whole')).toBe('whole');
    expect(captureValue('y(x?)', `${'z'.repeat(255)}y`)).toBe('');
    expect(captureValue('y', `${'z'.repeat(256)}y`)).toBeUndefined();
  });

  it('fills only well-formed placeholders, and reads a stored token list', () => {
    expect(renderTemplate('{{ a }}|{{a}}|{a}|{{a b}}|{{}}', { a: 'x' }, 100)).toBe('x|x|{a}|{{a b}}|{{}}');
    expect(renderTemplate('{{gone}}{{none}}{{zero}}', { gone: undefined, none: null, zero: 0 }, 100)).toBe('0');
    expect(renderTemplate('abcdef', {}, 3)).toBe('abc');
    expect(tokenListValues('a:1,b:2')).toEqual({ a: '1', b: '2' });
    expect(tokenListValues(42)).toEqual({});
  });
});

describe('patterns that repeat a repeating group', () => {
  it('are refused whatever the length of the group or the count of the quantifiers', () => {
    for (const refused of ['(ab+)+', '(a{10,})+', '(a{2,5})+', '(a+){10}', '(a+){10,}', '(a+){2,5}', '(ab|c)+', '(a|b){10,}', '(a|b){2,5}'])
      expect(patternProblem(refused), refused).toBe('may not repeat a group that repeats (nested quantifiers)');
  });
});

describe('SIP header tokens', () => {
  it('read only SipHeader_ fields holding text', () => {
    expect(sipHeaderFields({ 'NotHeader_X-A': 'v', 'SipHeader_X-N': 5, 'SipHeader_X-B': 'b' })).toStrictEqual({ 'x-b': 'b' });
  });

  it('are set by the parsers in id order (a later parser of the same token wins), only when their header is there and matches', () => {
    const parsers = [
      { id: 2, header_name: 'X-B', token_name: 'tier', pattern: null },
      { id: 1, header_name: 'X-A', token_name: 'tier', pattern: null },
      { id: 3, header_name: 'X-Gone', token_name: 'gone', pattern: '(\\d+)' },
      { id: 4, header_name: 'X-A', token_name: 'digits', pattern: '(\\d+)' },
    ];
    expect(parseSipTokens(parsers, { 'x-a': 'gold', 'x-b': 'silver' })).toStrictEqual({ tier: 'silver' });
  });
});

describe('token matchers on a token', () => {
  const matcher = (id: number, value: string, set: string, token: string | null = 'n'): TokenMatcher => ({
    id,
    match_field: 'token',
    match_token: token,
    match_type: 'exact',
    match_value: value,
    set_tokens: set,
    offer_id: null,
  });
  const facts = { called: '+18005550100', caller: null, offerId: null };

  it('compare numbers and booleans as their text, never objects, and skip disabled matchers', () => {
    expect(applyTokenMatchers([matcher(1, '42', 'hit:number')], { n: 42 }, facts)).toMatchObject({ hit: 'number' });
    expect(applyTokenMatchers([matcher(1, 'true', 'hit:boolean')], { n: true }, facts)).toMatchObject({ hit: 'boolean' });
    expect(applyTokenMatchers([matcher(1, '[object Object]', 'hit:object')], { n: {} }, facts)).not.toHaveProperty('hit');
    expect(applyTokenMatchers([{ ...matcher(1, '42', 'hit:number'), enabled: false }], { n: 42 }, facts)).not.toHaveProperty('hit');
  });

  it('read the token named "" when the matcher names none', () => {
    expect(applyTokenMatchers([matcher(1, 'x', 'hit:blank', null)], { '': 'x' }, facts)).toMatchObject({ hit: 'blank' });
  });
});

describe("a visitor's tokens", () => {
  const matcher = (id: number, set: string, enabled = true) => ({ id, enabled, param_name: 'utm_source', match_type: 'exact' as const, match_value: 'google', set_tokens: set, ring_pool_id: null });
  it('are set in id order (a later matcher wins), by enabled matchers only', () => {
    expect(visitorTokens([matcher(2, 'source:second'), matcher(1, 'source:first')], { utm_source: 'google' }, 3)).toEqual({ source: 'second' });
    expect(visitorTokens([matcher(1, 'source:off', false)], { utm_source: 'google' }, 3)).toEqual({});
  });
});

describe('the state of a caller, edges', () => {
  it('trims the carrier state, and needs no tokens', () => {
    expect(callerState({ carrierState: ' tx ' })).toBe('TX');
    expect(callerState({ caller: null })).toBeUndefined();
  });
});

describe('the inbound configuration, edges', () => {
  const number = { id: 5, number: '+18005550100', offer_id: 7 };
  const at = new Date('2026-11-28T12:00:00Z');
  it('reads a hold only with a text held_until', () => {
    const config = inboundConfigFrom(number, undefined, { rows: () => [], visitorHold: { held_until: ['2030-01-01T00:00:00Z'], tokens: { a: '1' } } }, at);
    expect(config.visitorTokens).toEqual({});
  });

  it("takes no group of another offer, and parses nothing for a call without SIP headers", () => {
    const table: Record<string, Record<string, unknown>[]> = {
      sip_header_parser_groups: [{ id: 14, offer_id: 99, phone_number_id: null }],
      sip_header_parsers: [{ id: 1, sip_header_parser_group_id: 14, header_name: 'X-A', token_name: 'a', pattern: null }],
    };
    const rows = (resource: string) => table[resource] ?? [];
    expect(inboundConfigFrom(number, { 'x-a': '1' }, { rows, visitorHold: undefined }, at).sipTokens).toEqual({});
    const ours: Record<string, Record<string, unknown>[]> = { ...table, sip_header_parser_groups: [{ id: 14, offer_id: 7, phone_number_id: null }] };
    expect(inboundConfigFrom(number, undefined, { rows: (resource) => ours[resource] ?? [], visitorHold: undefined }, at).sipTokens).toEqual({});
  });
});
