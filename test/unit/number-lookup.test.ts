import { describe, expect, it } from 'vitest';
import type { NumberRoute } from '../../shared/numbers/lookup.js';
import { chooseLookupSource, decodeBase64Text, numberFormats, visitorParams } from '../../shared/numbers/number-lookup.js';

const route = (id: number, fields: Partial<NumberRoute> = {}): NumberRoute => ({ id, number: `+1415555${String(id).padStart(4, '0')}`, company_id: 1, offer_id: 1, traffic_source_id: null, ring_pool_id: null, ...fields });

describe('the number-replacement script lookup', () => {
  it('decodes base64 as the script writes it, and nothing else', () => {
    expect(decodeBase64Text(Buffer.from('https://lp.example.com/?a=é').toString('base64'))).toBe('https://lp.example.com/?a=é');
    expect(decodeBase64Text('not base64!')).toBeUndefined();
    expect(decodeBase64Text('')).toBeUndefined();
  });

  it("takes the page's query, then the script's tokens (which win), leaving out what does not fit", () => {
    const tokens = new URLSearchParams({ utm_source: 'bing', lp: 'loans', 'nested[a]': 'x', long: 'y'.repeat(501) }).toString();
    expect(visitorParams('https://lp.example.com/p?utm_source=google&gclid=G1', tokens)).toEqual({ utm_source: 'bing', gclid: 'G1', lp: 'loans' });
    expect(visitorParams('not a url', undefined)).toEqual({});
    const many = new URLSearchParams(Object.fromEntries(Array.from({ length: 60 }, (_, i) => [`k${i}`, 'v']))).toString();
    expect(Object.keys(visitorParams(undefined, many))).toHaveLength(50);
  });

  it("chooses the traffic source's numbers when it has some, a pool before a fixed number, else the lowest id", () => {
    const numbers = [route(3), route(2, { traffic_source_id: 7 }), route(5, { ring_pool_id: 9 }), route(6, { ring_pool_id: 4 })];
    expect(chooseLookupSource(numbers, undefined)).toEqual({ kind: 'pool', poolId: 4 });
    expect(chooseLookupSource(numbers, 7)).toEqual({ kind: 'number', number: numbers[1] });
    expect(chooseLookupSource(numbers, 8)).toEqual({ kind: 'pool', poolId: 4 });
    expect(chooseLookupSource([route(3), route(2)], undefined)).toEqual({ kind: 'number', number: route(2) });
    expect(chooseLookupSource([], undefined)).toBeUndefined();
  });

  it('formats North American numbers for people, and leaves others in E.164', () => {
    expect(numberFormats('+14155552671')).toEqual({ plain_number: '+14155552671', human_number: '(415) 555-2671', dashed_number: '415-555-2671', dotted_number: '415.555.2671' });
    expect(numberFormats('+442079460000').human_number).toBe('+442079460000');
  });
});
