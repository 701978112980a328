import { describe, expect, it } from 'vitest';
import { keys, padId, type Key } from '../../shared/db/keys.js';

// The keys are the stored layout: an item written under one key must be found under the same key
// after a deploy, so the documented shapes (docs/table-design.md) are a contract, and every
// company-owned key must start with `C#<company id>` so one company's data is never addressed
// with another's id (the key builders' doc comment).

describe('documented key shapes (docs/table-design.md)', () => {
  it.each<[string, () => Key | string, Key | string]>([
    ['company', () => keys.company(7), { pk: 'C#7', sk: 'COMPANY' }],
    ['company by name (lowercased)', () => keys.companyByName('Acme Calls'), { pk: 'COMPANYNAME#acme calls', sk: 'LOOKUP' }],
    ['API key pair', () => keys.apiKey('pub123'), { pk: 'APIKEY#pub123', sk: 'APIKEY' }],
    ['user auth token', () => keys.userToken('ab12'), { pk: 'USERTOKEN#ab12', sk: 'USERTOKEN' }],
    ['configuration record', () => keys.record(7, 'buyers', 42), { pk: 'C#7#buyers', sk: '0000000000000042' }],
    ['resource partition', () => keys.resourcePartition(7, 'offers'), 'C#7#offers'],
    ['id sequence', () => keys.sequence(7, 'offers'), { pk: 'C#7#seq', sk: 'offers' }],
    ['global sequence', () => keys.globalSequence('company'), { pk: 'SEQ', sk: 'company' }],
    ['company lookup', () => keys.lookup(7, 'buyers', 'user_buyer_id', 'b-1'), { pk: 'C#7#buyers#by_user_buyer_id#b-1', sk: 'LOOKUP' }],
    ['global lookup', () => keys.globalLookup('phone_numbers', 'number', '+13125550100'), { pk: 'G#phone_numbers#by_number#+13125550100', sk: 'LOOKUP' }],
    ['buyer live counters', () => keys.buyerStats(7, 3), { pk: 'C#7#buyers', sk: 'stats#0000000000000003' }],
    ['deployment secret', () => keys.secret('list-cursor'), { pk: 'SECRET', sk: 'list-cursor' }],
    ['charge rollup', () => keys.chargeRollup(7, '2026-11-21', 'analysis'), { pk: 'C#7#charge_rollups', sk: '2026-11-21#analysis' }],
    ['charge rollups partition', () => keys.chargeRollups(7), 'C#7#charge_rollups'],
    ['day partition of a high-volume resource', () => keys.dayPartition(7, 'calls', '2026-11-21'), 'C#7#calls#2026-11-21'],
    ['live calls (gsi1)', () => keys.liveCalls(7), 'C#7#live_calls'],
    ['calls of a caller (gsi2)', () => keys.callsOfCaller(7, '+14155552671'), 'C#7#calls_of#+14155552671'],
    ['call day count shard', () => keys.callDayCount(7, '2026-11-21', 3), { pk: 'C#7#call_day_counts', sk: '2026-11-21#03' }],
    ['call day count partition', () => keys.callDayCounts(7), 'C#7#call_day_counts'],
  ])('%s', (_label, build, documented) => {
    // Built inside the test (not in the table) so that mutation testing sees which test covers it.
    expect(build()).toEqual(documented);
  });
});

/** Every company-owned key, built for `companyId` from the same other arguments. */
function companyKeys(companyId: number): Record<string, string> {
  const pair = (key: Key) => `${key.pk} | ${key.sk}`;
  return {
    company: pair(keys.company(companyId)),
    record: pair(keys.record(companyId, 'buyers', 1)),
    buyerStats: pair(keys.buyerStats(companyId, 1)),
    blacklist: pair(keys.blacklist(companyId, '+14155552671')),
    dayPartition: keys.dayPartition(companyId, 'calls', '2026-11-21'),
    rateCounter: pair(keys.rateCounter(companyId, 'webhook#1', 'minute#1')),
    numberReservation: pair(keys.numberReservation(companyId, '+13125550100', '+14155552671')),
    liveCalls: keys.liveCalls(companyId),
    callsOfCaller: keys.callsOfCaller(companyId, '+14155552671'),
    lastConversion: pair(keys.lastConversion(companyId, 'b1', '+14155552671')),
    callRollup: pair(keys.callRollup(companyId, '2026-11-21', '10', 'offer', '1')),
    callRollupHours: keys.callRollupHours(companyId, '2026-11-21', '00', '23').pk,
    callDayCount: pair(keys.callDayCount(companyId, '2026-11-21', 3)),
    chargeRollup: pair(keys.chargeRollup(companyId, '2026-11-21', 'analysis')),
    sequence: pair(keys.sequence(companyId, 'buyers')),
    lookup: pair(keys.lookup(companyId, 'buyers', 'user_buyer_id', 'b-1')),
  };
}

describe('company scoping', () => {
  it('starts every company-owned key with C#<company id>, followed by # or nothing', () => {
    for (const [name, key] of Object.entries(companyKeys(12))) {
      expect(key.startsWith('C#12#') || key.startsWith('C#12 |'), `${name}: ${key}`).toBe(true);
    }
  });

  it('never builds the same key for two companies, even when one id is a prefix of the other', () => {
    const one = companyKeys(1);
    const twelve = companyKeys(12);
    for (const name of Object.keys(one)) {
      expect(one[name], name).not.toBe(twelve[name]);
      // C#1 must not be a prefix of company 12's partitions, or a begins_with query would mix them.
      expect(twelve[name]!.startsWith('C#1#'), name).toBe(false);
    }
  });

  it('gives items of different kinds different keys (one table holds them all)', () => {
    const built = Object.values(companyKeys(5));
    expect(new Set(built).size).toBe(built.length);
  });
});

describe('keys that tell items of one kind apart', () => {
  it('keeps a rate counter per scope and per window', () => {
    const base = keys.rateCounter(5, 'webhook#1', 'minute#60');
    expect(keys.rateCounter(5, 'webhook#2', 'minute#60')).not.toEqual(base);
    expect(keys.rateCounter(5, 'webhook#1', 'minute#120')).not.toEqual(base);
    expect(keys.rateCounter(5, 'webhook#1', 'minute#60')).toEqual(base);
  });

  it('keeps a reservation per number and caller, in one partition per company', () => {
    const base = keys.numberReservation(5, '+13125550100', '+14155552671');
    expect(keys.numberReservation(5, '+13125550101', '+14155552671')).not.toEqual(base);
    expect(keys.numberReservation(5, '+13125550100', '+14155552672')).not.toEqual(base);
    expect(keys.numberReservation(5, '+13125550101', '+14155552672').pk).toBe(base.pk);
  });

  it('keeps the duplicate history per payer scope and caller', () => {
    const base = keys.lastConversion(5, 'b1', '+14155552671');
    expect(keys.lastConversion(5, 'oc1', '+14155552671')).not.toEqual(base);
    expect(keys.lastConversion(5, 'b1', '+14155552672')).not.toEqual(base);
  });

  it('keeps a blacklist entry per number, in one partition listing the company\'s blacklist', () => {
    expect(keys.blacklist(5, '+14155552671').pk).toBe(keys.blacklist(5, '+14155552672').pk);
    expect(keys.blacklist(5, '+14155552671').sk).not.toBe(keys.blacklist(5, '+14155552672').sk);
  });

  it('keeps a rollup cell per hour, category and value, one partition per UTC day', () => {
    const base = keys.callRollup(5, '2026-11-21', '10', 'offer', '1');
    expect(keys.callRollup(5, '2026-11-21', '11', 'offer', '1').pk).toBe(base.pk);
    for (const other of [keys.callRollup(5, '2026-11-21', '11', 'offer', '1'), keys.callRollup(5, '2026-11-21', '10', 'buyer', '1'), keys.callRollup(5, '2026-11-21', '10', 'offer', '2')]) {
      expect(other.sk).not.toBe(base.sk);
    }
    expect(keys.callRollup(5, '2026-11-22', '10', 'offer', '1').pk).not.toBe(base.pk);
  });

  it('bounds the rollup cells of hours first..last, every category and value included, nothing else', () => {
    const range = keys.callRollupHours(5, '2026-11-21', '08', '10');
    const cell = (hour: string, category = 'offer', value = '1') => keys.callRollup(5, '2026-11-21', hour, category, value);
    const inside = (key: Key) => key.pk === range.pk && key.sk >= range.low && key.sk <= range.high;
    for (const key of [cell('08'), cell('09', 'buyer', '77'), cell('10'), cell('10', 'zzz', '\u00ff'), cell('08', '', '')]) expect(inside(key), key.sk).toBe(true);
    for (const key of [cell('07', 'zzz', '\u00ff'), cell('11', '', ''), keys.callRollup(5, '2026-11-22', '09', 'offer', '1')]) expect(inside(key), key.sk).toBe(false);
  });

  it('keeps a call day count per day and shard, and bounds every shard of days first..last, nothing else', () => {
    const base = keys.callDayCount(5, '2026-11-21', 0);
    expect(keys.callDayCount(5, '2026-11-21', 15).pk).toBe(base.pk);
    expect(keys.callDayCount(5, '2026-11-21', 15).sk).not.toBe(base.sk);
    const range = keys.callDayCountDays(5, '2026-11-20', '2026-11-21');
    expect(range.pk).toBe(base.pk);
    const inside = (key: Key) => key.pk === range.pk && key.sk >= range.low && key.sk <= range.high;
    for (const key of [keys.callDayCount(5, '2026-11-20', 0), keys.callDayCount(5, '2026-11-20', 15), keys.callDayCount(5, '2026-11-21', 15)]) expect(inside(key), key.sk).toBe(true);
    for (const key of [keys.callDayCount(5, '2026-11-19', 15), keys.callDayCount(5, '2026-11-22', 0), keys.callDayCount(6, '2026-11-21', 0)]) expect(inside(key), key.sk).toBe(false);
  });

  it('orders charge rollups by day, so a day range is one key range', () => {
    expect(keys.chargeRollup(5, '2026-11-20', 'x').sk < keys.chargeRollup(5, '2026-11-21', 'a').sk).toBe(true);
  });
});

describe('padId', () => {
  it('pads ids to 16 digits so string order is numeric order', () => {
    expect(padId(42)).toBe('0000000000000042');
    const ids = [1, 9, 10, 99, 100, 123_456_789, 2 ** 53 - 1];
    const sorted = ids.map(padId).sort();
    expect(sorted).toEqual(ids.map(padId));
  });

  it('sorts buyer counter items after every padded id, so the id range never includes them', () => {
    const stats = keys.buyerStats(5, 1);
    expect(stats.pk).toBe(keys.record(5, 'buyers', 1).pk);
    expect(stats.sk > '9999999999999999').toBe(true);
  });
});
