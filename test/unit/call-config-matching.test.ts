import { describe, expect, it } from 'vitest';
import { callerState, stateOfNumber } from '../../shared/call-config/caller-state.js';
import { recordingFor, sipHeadersFor } from '../../shared/call-config/dial-extras.js';
import { applyTokenMatchers, parseSipTokens, sipHeaderFields, visitorTokens, type TokenMatcher } from '../../shared/call-config/inbound-tokens.js';
import { applicableStateLimits } from '../../shared/call-config/state-limits.js';
import { captureValue, patternProblem, PATTERN_LIMITS, renderTemplate, textMatches } from '../../shared/call-config/text-match.js';
import { stateOfAreaCode } from '../../shared/call-config/us-area-codes.js';
import { US_STATE_CODES } from '../../shared/call-config/us-states.js';

describe('patterns', () => {
  it('accept ordinary regexes and refuse the ones that backtrack without bound, or are invalid or long', () => {
    for (const ok of ['^\\+1415', 'tier=(\\w+)', '^(?:gold|silver)$', '\\d{3}-\\d{4}', '[a-z]+@example\\.com']) expect(patternProblem(ok)).toBeUndefined();
    for (const nested of ['(a+)+$', '(\\d*)*', '(a|aa)+', '(x{1,3}){2,}', '(.*a){5}']) expect(patternProblem(nested), nested).toBe('may not repeat a group that repeats (nested quantifiers)');
    expect(patternProblem('(a)\\1')).toBe('may not use back-references or lookarounds');
    expect(patternProblem('(?=a)b')).toBe('may not use back-references or lookarounds');
    expect(patternProblem('([a-z]')).toBe('is not a valid regular expression');
    expect(patternProblem('a'.repeat(PATTERN_LIMITS.patternLength + 1))).toBe(`is longer than ${PATTERN_LIMITS.patternLength} characters`);
  });

  it('match exact, prefix and regex; a regex sees only the bounded start of the subject', () => {
    expect(textMatches('exact', '+14155550100', '+14155550100')).toBe(true);
    expect(textMatches('exact', '+1415', '+14155550100')).toBe(false);
    expect(textMatches('prefix', '+1415', '+14155550100')).toBe(true);
    expect(textMatches('prefix', '+1415', null)).toBe(false);
    expect(textMatches('regex', '^\\+1(415|628)', '+16285550100')).toBe(true);
    expect(textMatches('regex', '(a+)+$', 'aaaa')).toBe(false);
    expect(textMatches('regex', 'end$', `${'x'.repeat(PATTERN_LIMITS.subjectLength)}end`)).toBe(false);
  });

  it('capture the first group, else the whole match, else the header itself', () => {
    expect(captureValue('tier=(\\w+)', 'id=7;tier=gold')).toBe('gold');
    expect(captureValue('\\d+', 'id=7;x')).toBe('7');
    expect(captureValue(null, 'A-17')).toBe('A-17');
    expect(captureValue('tier=(\\w+)', 'none')).toBeUndefined();
    expect(captureValue('(a+)+', 'aaa')).toBeUndefined();
  });
});

describe('templates', () => {
  it('fill placeholders from values, empty for missing ones, bounded', () => {
    expect(renderTemplate('{{campaign}}-{{ caller_number }}-{{missing}}', { campaign: 'spring', caller_number: '+1415' }, 100)).toBe('spring-+1415-');
    expect(renderTemplate('{{n}}{{flag}}{{nested}}', { n: 3, flag: true, nested: { a: 1 } }, 100)).toBe('3true');
    expect(renderTemplate('{{long}}', { long: 'x'.repeat(500) }, 256)).toHaveLength(256);
  });
});

describe('SIP headers of a dial', () => {
  const call = { id: 9, uuid: 'u-1', caller_number: '+14155550100', offer_id: 2, traffic_source_id: null, data: { campaign: 'spring' } };
  const buyer = { id: 5 };
  it('take the enabled headers of the buyer and offer (or of all), X- prefixed, values filled', () => {
    const rows = [
      { id: 2, name: 'X-Caller', value: '{{caller_number}}', buyer_id: null, offer_id: 2, enabled: true },
      { id: 1, name: 'Campaign', value: '{{campaign}}', buyer_id: 5, offer_id: null, enabled: true },
      { id: 3, name: 'Other', value: 'x', buyer_id: 6, offer_id: null, enabled: true },
      { id: 4, name: 'Off', value: 'x', buyer_id: null, offer_id: null, enabled: false },
      { id: 5, name: 'OtherOffer', value: 'x', buyer_id: null, offer_id: 3, enabled: true },
    ];
    expect(sipHeadersFor(rows, buyer, call)).toEqual([
      { name: 'X-Campaign', value: 'spring' },
      { name: 'X-Caller', value: '+14155550100' },
    ]);
  });

  it('record with the first matching enabled rule', () => {
    const rules = [
      { id: 3, enabled: true, recording_channels: 'dual', offer_id: null, buyer_id: null, traffic_source_id: null, record_token_filter_list: null },
      { id: 1, enabled: true, recording_channels: 'mono', offer_id: 2, buyer_id: 5, traffic_source_id: null, record_token_filter_list: ['campaign:spring'] },
    ];
    expect(recordingFor(rules, buyer, call)).toBe('mono');
    expect(recordingFor(rules.slice(1), buyer, { ...call, data: { campaign: 'fall' } })).toBeNull();
    expect(recordingFor([{ ...rules[0]!, enabled: false }], buyer, call)).toBeNull();
    expect(recordingFor([{ ...rules[0]!, traffic_source_id: 4 }], buyer, call)).toBeNull();
  });
});

describe('inbound tokens', () => {
  it('read SipHeader_ fields, bounded, names lower-cased', () => {
    const params = { 'SipHeader_X-Customer': 'tier=gold', CallSid: 'CA1', 'SipHeader_bad name': 'x', 'SipHeader_X-Long': 'v'.repeat(1000) };
    const headers = sipHeaderFields(params);
    expect(headers).toEqual({ 'x-customer': 'tier=gold', 'x-long': 'v'.repeat(256) });
    const many = Object.fromEntries(Array.from({ length: 40 }, (_, n) => [`SipHeader_X-H${n}`, 'v']));
    expect(Object.keys(sipHeaderFields(many))).toHaveLength(20);
  });

  it('parse headers into tokens with the enabled parsers', () => {
    const parsers = [
      { id: 1, header_name: 'X-Customer', token_name: 'tier', pattern: 'tier=(\\w+)' },
      { id: 2, header_name: 'x-account', token_name: 'account', pattern: null },
      { id: 3, header_name: 'X-Customer', token_name: 'off', pattern: null, enabled: false },
      { id: 4, header_name: 'X-Missing', token_name: 'missing', pattern: null },
    ];
    expect(parseSipTokens(parsers, { 'x-customer': 'id=1;tier=gold', 'x-account': 'A-17' })).toEqual({ tier: 'gold', account: 'A-17' });
  });

  it('apply token matchers in id order, each seeing the tokens earlier ones set, scoped to an offer', () => {
    const base = { match_token: null, match_type: 'exact', enabled: true, offer_id: null } as const;
    const matchers: TokenMatcher[] = [
      { ...base, id: 2, match_field: 'token', match_token: 'line', match_value: 'main', set_tokens: 'region:bay' },
      { ...base, id: 1, match_field: 'called_number', match_value: '+18005550100', set_tokens: 'line:main' },
      { ...base, id: 3, match_field: 'caller_number', match_type: 'prefix', match_value: '+1415', set_tokens: 'local:yes', offer_id: 7 },
    ];
    expect(applyTokenMatchers(matchers, { kept: 1 }, { called: '+18005550100', caller: '+14155550100', offerId: 2 })).toEqual({ kept: 1, line: 'main', region: 'bay' });
    expect(applyTokenMatchers(matchers, {}, { called: '+18005550199', caller: '+14155550100', offerId: 7 })).toEqual({ local: 'yes' });
  });

  it("set a visitor's tokens from their parameters, for the pool or every pool", () => {
    const matchers = [
      { id: 1, param_name: 'utm_source', match_type: 'exact' as const, match_value: 'google', set_tokens: 'source:google', ring_pool_id: null },
      { id: 2, param_name: 'utm_campaign', match_type: 'prefix' as const, match_value: 'spring', set_tokens: 'season:spring', ring_pool_id: 3 },
    ];
    expect(visitorTokens(matchers, { utm_source: 'google', utm_campaign: 'spring-sale' }, 3)).toEqual({ source: 'google', season: 'spring' });
    expect(visitorTokens(matchers, { utm_source: 'google', utm_campaign: 'spring-sale' }, 4)).toEqual({ source: 'google' });
    expect(visitorTokens(matchers, { utm_source: 'bing' }, 3)).toEqual({});
  });
});

describe('the state of a caller', () => {
  it('comes from FromState, else the area code, else a state token', () => {
    expect(stateOfNumber('+14155550100')).toBe('CA');
    expect(stateOfNumber('(212) 555-0100')).toBe('NY');
    expect(stateOfNumber('+18005550100')).toBeUndefined();
    expect(stateOfNumber('+442071838750')).toBeUndefined();
    expect(callerState({ carrierState: 'tx', caller: '+14155550100' })).toBe('TX');
    expect(callerState({ carrierState: 'Somewhere', caller: '+14155550100' })).toBe('CA');
    expect(callerState({ caller: '+442071838750', tokens: { state: 'or' } })).toBe('OR');
    expect(callerState({ caller: null, tokens: {} })).toBeUndefined();
  });

  it('has one state for every area code of the table and 51 state codes (DC included)', () => {
    expect(US_STATE_CODES).toHaveLength(51);
    expect(stateOfAreaCode('907')).toBe('AK');
    expect(stateOfAreaCode('800')).toBeUndefined();
  });

  it('picks the enabled limits of the state for the offer or every offer', () => {
    const limits = [
      { id: 1, state: 'CA', offer_id: null, concurrent_limit: 3, daily_limit: null, enabled: true },
      { id: 2, state: 'CA', offer_id: 7, concurrent_limit: null, daily_limit: 5, enabled: true },
      { id: 3, state: 'CA', offer_id: 8, concurrent_limit: 1, daily_limit: null, enabled: true },
      { id: 4, state: 'NY', offer_id: null, concurrent_limit: 1, daily_limit: null, enabled: true },
      { id: 5, state: 'CA', offer_id: null, concurrent_limit: 1, daily_limit: null, enabled: false },
    ];
    expect(applicableStateLimits(limits, 'CA', 7).map((limit) => limit.id)).toEqual([1, 2]);
    expect(applicableStateLimits(limits, undefined, 7)).toEqual([]);
  });
});
