import { describe, expect, it } from 'vitest';
import { createNumberProvider } from '../../shared/adapters/index.js';
import { TwilioNumbers } from '../../shared/adapters/aws/twilio-numbers.js';
import { DEFAULT_LOCAL_NUMBER_RANGE, matchesSearch, parseNumberRange, TestNumberRange } from '../../shared/adapters/local/test-number-range.js';
import { NumberUnavailableError } from '../../shared/ports/numbers.js';

describe('number range parsing', () => {
  it('reads first..last as inclusive E.164 ends of the same length', () => {
    expect(parseNumberRange('+14155550100..+14155550199')).toEqual({ first: 14155550100, last: 14155550199, width: 11 });
    expect(parseNumberRange(' +442079460000..+442079460009 ')).toEqual({ first: 442079460000, last: 442079460009, width: 12 });
  });

  it.each([
    ['+14155550100'],
    ['14155550100..14155550199'],
    ['+14155550100..+1415555019'],
    ['+14155550199..+14155550100'],
    ['+14155550100..+14155550199..+14155550200'],
    ['+1415abc0100..+14155550199'],
    ['+10000000000..+19999999999'],
  ])('refuses %s', (text) => {
    expect(() => parseNumberRange(text)).toThrow(/Invalid number range/);
  });
});

describe('search matching', () => {
  it('matches the area code of +1 numbers and digits anywhere, * for any digit', () => {
    expect(matchesSearch('+14155550123', { area_code: '415' })).toBe(true);
    expect(matchesSearch('+14155550123', { area_code: '212' })).toBe(false);
    expect(matchesSearch('+14155550123', { contains: '0123' })).toBe(true);
    expect(matchesSearch('+14155550123', { contains: '01*3' })).toBe(true);
    expect(matchesSearch('+14155550123', { contains: '0124' })).toBe(false);
    expect(matchesSearch('+14155550123', { area_code: '415', contains: '99' })).toBe(false);
    expect(matchesSearch('+14155550123', {})).toBe(true);
  });
});

describe('local number provider (test number range)', () => {
  it('defaults to the fictional +1 415 555-0100..0199', async () => {
    const provider = new TestNumberRange();
    expect(DEFAULT_LOCAL_NUMBER_RANGE).toBe('+14155550100..+14155550199');
    const all = await provider.search({ limit: 500 });
    expect(all).toHaveLength(100);
    expect(all[0]).toBe('+14155550100');
    expect(all[99]).toBe('+14155550199');
    expect(provider.name).toBe('local');
  });

  it('lists candidates in order, at most limit, filtered by area code and contains', async () => {
    const provider = new TestNumberRange();
    expect(await provider.search({ limit: 3 })).toEqual(['+14155550100', '+14155550101', '+14155550102']);
    expect(await provider.search({ area_code: '415', limit: 2 })).toEqual(['+14155550100', '+14155550101']);
    expect(await provider.search({ area_code: '212', limit: 10 })).toEqual([]);
    expect(await provider.search({ contains: '0150', limit: 10 })).toEqual(['+14155550150']);
    expect(await provider.search({ contains: '01*9', limit: 3 })).toEqual(['+14155550109', '+14155550119', '+14155550129']);
  });

  it('takes its range from the constructor', async () => {
    const provider = new TestNumberRange('+12125550100..+12125550103');
    expect(await provider.search({ limit: 10 })).toEqual(['+12125550100', '+12125550101', '+12125550102', '+12125550103']);
    expect(await provider.search({ area_code: '415', limit: 10 })).toEqual([]);
  });

  it('sells any number of the range (it does not track who holds what) and refuses others', async () => {
    const provider = new TestNumberRange('+12125550100..+12125550103');
    expect(await provider.purchase('+12125550102')).toEqual({ number: '+12125550102', provider_id: 'LOCAL12125550102' });
    expect(await provider.purchase('+12125550102')).toEqual({ number: '+12125550102', provider_id: 'LOCAL12125550102' });
    await expect(provider.purchase('+12125550104')).rejects.toBeInstanceOf(NumberUnavailableError);
    await expect(provider.purchase('+1212555010')).rejects.toBeInstanceOf(NumberUnavailableError);
    await expect(provider.purchase('not a number')).rejects.toBeInstanceOf(NumberUnavailableError);
    expect(provider.purchases.map((purchase) => purchase.number)).toEqual(['+12125550102', '+12125550102']);
  });

  it('records releases and nothing else', async () => {
    const provider = new TestNumberRange();
    await provider.release('LOCAL14155550100', '+14155550100');
    expect(provider.releases).toEqual([{ provider_id: 'LOCAL14155550100', number: '+14155550100' }]);
    expect(await provider.search({ limit: 1 })).toEqual(['+14155550100']);
  });
});

describe('number provider wiring', () => {
  it('makes the local range when NUMBER_PROVIDER=local, with LOCAL_NUMBER_RANGE or the default', async () => {
    const custom = createNumberProvider({ NUMBER_PROVIDER: 'local', LOCAL_NUMBER_RANGE: '+16465550100..+16465550101' });
    expect(custom).toBeInstanceOf(TestNumberRange);
    expect(await custom.search({ limit: 5 })).toEqual(['+16465550100', '+16465550101']);
    const fallback = createNumberProvider({ NUMBER_PROVIDER: 'local' });
    expect(await fallback.search({ limit: 1 })).toEqual(['+14155550100']);
  });

  it('defaults to Twilio, which needs an account SID and an auth token', () => {
    expect(() => createNumberProvider({})).toThrow(/TWILIO_ACCOUNT_SID and TWILIO_AUTH_TOKEN/);
    expect(() => createNumberProvider({ NUMBER_PROVIDER: 'twilio', TWILIO_ACCOUNT_SID: 'AC1' })).toThrow(/TWILIO_AUTH_TOKEN/);
    const twilio = createNumberProvider({ TWILIO_ACCOUNT_SID: 'AC1', TWILIO_AUTH_TOKEN: 'token' });
    expect(twilio).toBeInstanceOf(TwilioNumbers);
    expect(twilio.name).toBe('twilio');
  });

  it('refuses an unknown provider and a malformed range', () => {
    expect(() => createNumberProvider({ NUMBER_PROVIDER: 'carrier-pigeon' })).toThrow(/Unknown NUMBER_PROVIDER carrier-pigeon/);
    expect(() => createNumberProvider({ NUMBER_PROVIDER: 'local', LOCAL_NUMBER_RANGE: '555-0100' })).toThrow(/Invalid number range/);
  });
});
