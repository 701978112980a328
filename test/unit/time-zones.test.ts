import { describe, expect, it } from 'vitest';
import { IANAZone } from 'luxon';
import { RAILS_TIME_ZONE_NAMES } from '../../shared/time-zone-names.js';
import { formatUtcOffset, resolveTimeZone, timeZoneCollection } from '../../shared/time-zones.js';
import { parseApiTime } from '../../shared/time.js';

const JANUARY = new Date('2026-01-15T12:00:00Z');
const JULY = new Date('2026-07-15T12:00:00Z');

const iso = (date: Date | undefined): string | undefined => date?.toISOString();

describe('Rails time zone names', () => {
  it('has the whole Rails set, each name once, each zone known to the runtime', () => {
    const names = RAILS_TIME_ZONE_NAMES.map(([name]) => name);
    expect(names.length).toBeGreaterThanOrEqual(150);
    expect(new Set(names).size).toBe(names.length);
    const unknown = RAILS_TIME_ZONE_NAMES.filter(([, iana]) => !IANAZone.isValidZone(iana));
    expect(unknown).toEqual([]);
  });
});

describe('resolveTimeZone', () => {
  it.each([
    ['Eastern Time (US & Canada)', 'America/New_York'],
    ['Pacific Time (US & Canada)', 'America/Los_Angeles'],
    ['Central Time (US & Canada)', 'America/Chicago'],
    ['Arizona', 'America/Phoenix'],
    ['Alaska', 'America/Juneau'],
    ['UTC', 'Etc/UTC'],
    ['London', 'Europe/London'],
    ['Edinburgh', 'Europe/London'],
    ['Berlin', 'Europe/Berlin'],
    ['Kolkata', 'Asia/Kolkata'],
    ['Chennai', 'Asia/Kolkata'],
    ['Astana', 'Asia/Almaty'],
    ['International Date Line West', 'Etc/GMT+12'],
    ["Nuku'alofa", 'Pacific/Tongatapu'],
  ])('maps the Rails name %s to %s', (name, iana) => {
    expect(resolveTimeZone(name)).toBe(iana);
  });

  it('trims a Rails name but matches it case-sensitively, like Rails', () => {
    expect(resolveTimeZone('  Eastern Time (US & Canada)\n')).toBe('America/New_York');
    expect(resolveTimeZone('eastern time (us & canada)')).toBeUndefined();
    expect(resolveTimeZone('Eastern Time')).toBeUndefined();
    expect(resolveTimeZone('Eastern  Time (US & Canada)')).toBeUndefined();
  });

  it.each(['America/New_York', 'Europe/Berlin', 'Asia/Kolkata', 'Australia/Lord_Howe', 'Etc/GMT-14', 'US/Eastern'])(
    'passes through the IANA name %s',
    (name) => {
      expect(resolveTimeZone(name)).toBe(name);
      expect(resolveTimeZone(` ${name} `)).toBe(name);
    },
  );

  it('gives IANA names their usual spelling', () => {
    expect(resolveTimeZone('america/new_york')).toBe('America/New_York');
    expect(resolveTimeZone('ASIA/KOLKATA')).toBe('Asia/Kolkata');
  });

  it.each(['', '   ', 'Mars/Olympus_Mons', 'Eastern', 'New York', 'local', 'system', 'UTC+5', '+05:00', '-0530', '\u221205:00', '+14', 'constructor', '__proto__', 'toString'])(
    'rejects %j',
    (name) => {
      expect(resolveTimeZone(name)).toBeUndefined();
    },
  );
});

describe('formatUtcOffset', () => {
  it.each([
    [0, '+00:00'],
    [-300, '-05:00'],
    [330, '+05:30'],
    [345, '+05:45'],
    [-210, '-03:30'],
    [780, '+13:00'],
  ])('%i minutes → %s', (minutes, text) => {
    expect(formatUtcOffset(minutes)).toBe(text);
  });
});

describe('timeZoneCollection', () => {
  const january = timeZoneCollection(JANUARY);
  const july = timeZoneCollection(JULY);
  const find = (list: ReturnType<typeof timeZoneCollection>, name: string) => list.find((z) => z.name === name);

  it('lists every Rails zone with a valid IANA zone', () => {
    expect(january.length).toBeGreaterThanOrEqual(140);
    expect(january.length).toBe(RAILS_TIME_ZONE_NAMES.length);
    for (const zone of january) expect(IANAZone.isValidZone(zone.iana), zone.iana).toBe(true);
    expect(find(january, 'Eastern Time (US & Canada)')?.iana).toBe('America/New_York');
  });

  it('gives offsets at the time asked about', () => {
    expect(find(january, 'Eastern Time (US & Canada)')?.utc_offset).toBe('-05:00');
    expect(find(july, 'Eastern Time (US & Canada)')?.utc_offset).toBe('-04:00');
    expect(find(january, 'Arizona')?.utc_offset).toBe('-07:00');
    expect(find(july, 'Arizona')?.utc_offset).toBe('-07:00');
    expect(find(january, 'London')?.utc_offset).toBe('+00:00');
    expect(find(july, 'London')?.utc_offset).toBe('+01:00');
    expect(find(january, 'Sydney')?.utc_offset).toBe('+11:00');
    expect(find(july, 'Sydney')?.utc_offset).toBe('+10:00');
    expect(find(july, 'Kolkata')?.utc_offset).toBe('+05:30');
    expect(find(july, 'Kathmandu')?.utc_offset).toBe('+05:45');
    expect(find(july, 'Newfoundland')?.utc_offset).toBe('-02:30');
    expect(find(january, 'UTC')?.utc_offset).toBe('+00:00');
  });

  it('labels entries like Rails TimeZone#to_s', () => {
    expect(find(january, 'Eastern Time (US & Canada)')?.label).toBe('(GMT-05:00) Eastern Time (US & Canada)');
    expect(find(july, 'Eastern Time (US & Canada)')?.label).toBe('(GMT-04:00) Eastern Time (US & Canada)');
    expect(find(january, 'UTC')?.label).toBe('(GMT+00:00) UTC');
    expect(find(january, 'Kolkata')?.label).toBe('(GMT+05:30) Kolkata');
    for (const zone of january) expect(zone.label).toBe(`(GMT${zone.utc_offset}) ${zone.name}`);
  });

  it('sorts by offset, then by name', () => {
    const minutes = (offset: string) => (offset.startsWith('-') ? -1 : 1) * (Number(offset.slice(1, 3)) * 60 + Number(offset.slice(4, 6)));
    for (let i = 1; i < january.length; i++) {
      const previous = january[i - 1]!;
      const current = january[i]!;
      const byOffset = minutes(previous.utc_offset) - minutes(current.utc_offset);
      expect(byOffset, `${previous.name} before ${current.name}`).toBeLessThanOrEqual(0);
      if (byOffset === 0) expect(previous.name < current.name, `${previous.name} before ${current.name}`).toBe(true);
    }
    expect(january[0]?.name).toBe('International Date Line West');
    // Chatham Islands' summer time, +13:45, is the largest offset in January.
    expect(january.at(-1)?.name).toBe('Chatham Is.');
    expect(january.at(-1)?.utc_offset).toBe('+13:45');
    const names = january.map((z) => z.name);
    // Same offset in January: the US Central zones sort by name.
    expect(names.indexOf('Central America')).toBeLessThan(names.indexOf('Central Time (US & Canada)'));
    // Eastern moves relative to Bogota (always -05:00) between the seasons.
    expect(names.indexOf('Bogota')).toBeLessThan(names.indexOf('Eastern Time (US & Canada)'));
    const julyNames = july.map((z) => z.name);
    expect(julyNames.indexOf('Bogota')).toBeLessThan(julyNames.indexOf('Caracas'));
    expect(julyNames.indexOf('Eastern Time (US & Canada)')).toBeGreaterThan(julyNames.indexOf('Caracas'));
  });

  it('defaults to the current time', () => {
    const now = timeZoneCollection();
    expect(now.length).toBe(january.length);
    expect(find(now, 'UTC')?.utc_offset).toBe('+00:00');
  });
});

describe('parseApiTime', () => {
  it.each([
    ['2026-11-01 12:00:00 +0000', 'UTC', '2026-11-01T12:00:00.000Z'],
    ['2026-11-01 12:00:00 -0500', 'UTC', '2026-11-01T17:00:00.000Z'],
    ['2026-11-01 12:00:00 +0530', 'UTC', '2026-11-01T06:30:00.000Z'],
    ['2026-11-01 12:00:00 +05:30', 'UTC', '2026-11-01T06:30:00.000Z'],
    ['2026-11-01 12:00:00 -03', 'UTC', '2026-11-01T15:00:00.000Z'],
    ['2026-11-01 12:00:00-0500', 'UTC', '2026-11-01T17:00:00.000Z'],
    ['2026-11-01 12:00:00 UTC', 'America/New_York', '2026-11-01T12:00:00.000Z'],
    ['2026-11-01 12:00:00 Z', 'America/New_York', '2026-11-01T12:00:00.000Z'],
    ['  2026-11-01 12:00:00 +0000 ', 'UTC', '2026-11-01T12:00:00.000Z'],
  ])('reads %j with its offset (zone %s ignored)', (text, zone, expected) => {
    expect(iso(parseApiTime(text, zone))).toBe(expected);
    expect(iso(parseApiTime(text, 'Asia/Tokyo'))).toBe(expected);
  });

  it('reads a "+" that query-string decoding turned into a space', () => {
    expect(iso(parseApiTime('2026-11-01 12:00:00  0000', 'America/New_York'))).toBe('2026-11-01T12:00:00.000Z');
    expect(iso(parseApiTime('2026-11-01 12:00:00 0530', 'UTC'))).toBe('2026-11-01T06:30:00.000Z');
    expect(iso(parseApiTime('2026-11-01 12:00 0100', 'UTC'))).toBe('2026-11-01T11:00:00.000Z');
  });

  it('reads times without an offset in the given zone', () => {
    expect(iso(parseApiTime('2026-11-01 12:00:00', 'UTC'))).toBe('2026-11-01T12:00:00.000Z');
    expect(iso(parseApiTime('2026-11-01 12:00:00', 'America/New_York'))).toBe('2026-11-01T17:00:00.000Z');
    expect(iso(parseApiTime('2026-07-01 12:00:00', 'America/New_York'))).toBe('2026-07-01T16:00:00.000Z');
    expect(iso(parseApiTime('2026-07-01 12:00:00', 'Asia/Kolkata'))).toBe('2026-07-01T06:30:00.000Z');
    expect(iso(parseApiTime('2026-07-01 12:00:00', 'Etc/UTC'))).toBe('2026-07-01T12:00:00.000Z');
  });

  it('reads times without seconds', () => {
    expect(iso(parseApiTime('2026-11-01 12:34', 'America/Los_Angeles'))).toBe('2026-11-01T20:34:00.000Z');
    expect(iso(parseApiTime('2026-11-01 12:34 +0200', 'America/Los_Angeles'))).toBe('2026-11-01T10:34:00.000Z');
  });

  it('reads a date as the midnight starting it in the given zone', () => {
    expect(iso(parseApiTime('2026-11-01', 'UTC'))).toBe('2026-11-01T00:00:00.000Z');
    expect(iso(parseApiTime('2026-11-01', 'America/New_York'))).toBe('2026-11-01T04:00:00.000Z');
    expect(iso(parseApiTime('2026-11-02', 'America/New_York'))).toBe('2026-11-02T05:00:00.000Z');
    expect(iso(parseApiTime('2026-11-01', 'Asia/Tokyo'))).toBe('2026-10-31T15:00:00.000Z');
  });

  it.each([
    ['2026-11-21T05:31:00Z', '2026-11-21T05:31:00.000Z'],
    ['2026-11-21T05:31:00.123-05:00', '2026-11-21T10:31:00.123Z'],
    ['2026-11-21T05:31:00.5+01:00', '2026-11-21T04:31:00.500Z'],
    ['2026-11-21T05:31:00.123456789Z', '2026-11-21T05:31:00.123Z'],
    ['2026-11-21T05:31:00,25Z', '2026-11-21T05:31:00.250Z'],
    ['2026-11-21T05:31:00+0100', '2026-11-21T04:31:00.000Z'],
    ['2026-11-21T05:31Z', '2026-11-21T05:31:00.000Z'],
  ])('reads ISO 8601 %j', (text, expected) => {
    expect(iso(parseApiTime(text, 'America/Chicago'))).toBe(expected);
  });

  it('reads ISO 8601 without an offset in the given zone', () => {
    expect(iso(parseApiTime('2026-11-21T05:31:00', 'America/Chicago'))).toBe('2026-11-21T11:31:00.000Z');
    expect(iso(parseApiTime('2026-11-21T05:31', 'UTC'))).toBe('2026-11-21T05:31:00.000Z');
  });

  it('reads one-digit months, days and hours, as PHP date("Y-n-j G:i:s") writes them (docs/compatibility.md)', () => {
    expect(iso(parseApiTime('2026-1-1', 'UTC'))).toBe('2026-01-01T00:00:00.000Z');
    expect(iso(parseApiTime('2026-11-5 00:00:00 -0500', 'UTC'))).toBe('2026-11-05T05:00:00.000Z');
    expect(iso(parseApiTime('2026-11-05 9:05:00 UTC', 'America/Chicago'))).toBe('2026-11-05T09:05:00.000Z');
    expect(iso(parseApiTime('2026-3-8 23:59:59', 'America/New_York'))).toBe('2026-03-09T03:59:59.000Z');
  });

  it('reads a created_at range across the spring-forward boundary', () => {
    const zone = 'America/New_York';
    const from = parseApiTime('2026-03-08 01:30:00', zone);
    const to = parseApiTime('2026-03-08 03:30:00', zone);
    expect(iso(from)).toBe('2026-03-08T06:30:00.000Z'); // EST, -05:00
    expect(iso(to)).toBe('2026-03-08T07:30:00.000Z'); // EDT, -04:00
    // Two wall-clock hours apart, one real hour.
    expect(to!.getTime() - from!.getTime()).toBe(60 * 60 * 1000);
    // The same range given with offsets does not depend on the zone.
    expect(iso(parseApiTime('2026-03-08 01:30:00 -0500', 'UTC'))).toBe(iso(from));
    expect(iso(parseApiTime('2026-03-08 03:30:00 -0400', 'UTC'))).toBe(iso(to));
  });

  it('reads a created_at range across the fall-back boundary', () => {
    const zone = 'America/New_York';
    expect(iso(parseApiTime('2026-11-01 00:30:00', zone))).toBe('2026-11-01T04:30:00.000Z'); // EDT
    expect(iso(parseApiTime('2026-11-01 03:00:00', zone))).toBe('2026-11-01T08:00:00.000Z'); // EST
    expect(iso(parseApiTime('2026-11-01 12:00:00 +0000', zone))).toBe('2026-11-01T12:00:00.000Z');
  });

  it('follows luxon in a DST gap: the time moves forward by the gap', () => {
    expect(iso(parseApiTime('2026-03-08 02:30:00', 'America/New_York'))).toBe('2026-03-08T07:30:00.000Z');
    expect(iso(parseApiTime('2026-03-29 01:30:00', 'Europe/London'))).toBe('2026-03-29T01:30:00.000Z');
  });

  it('follows luxon in a DST overlap: the later instant (standard time)', () => {
    expect(iso(parseApiTime('2026-11-01 01:30:00', 'America/New_York'))).toBe('2026-11-01T06:30:00.000Z');
    // An offset picks either instant.
    expect(iso(parseApiTime('2026-11-01 01:30:00 -0400', 'America/New_York'))).toBe('2026-11-01T05:30:00.000Z');
    expect(iso(parseApiTime('2026-11-01 01:30:00 -0500', 'America/New_York'))).toBe('2026-11-01T06:30:00.000Z');
  });

  it.each([
    '2026-02-30',
    '2026-02-29 00:00:00',
    '2026-13-01',
    '2026-00-10',
    '2026-04-31 10:00',
    '2026-11-01 25:00:00',
    '2026-11-01 24:00:00',
    '2026-11-01 12:60:00',
    '2026-11-01 12:00:60',
    '2026-11-01 12:00:00 +2500',
    '2026-11-01 12:00:00 +0560',
    '2026-11-01 12:00:00 +5',
    '2026-11-01 12:00:00 EST',
    '2026-11-01 12:00:00 America/New_York',
    '2026-11-01 12',
    '2026-11-01T',
    '2026-11-01 +0000',
    '26-11-01',
    '20261101',
    '2026/11/01',
    '11/01/2026',
    '2026-W44-7',
    '2026-305',
    '12:00:00',
    'yesterday',
    '1793282460',
    '',
    '   ',
    '2026-11-01 12:00:00 +0000 trailing',
  ])('rejects %j', (text) => {
    expect(parseApiTime(text, 'America/New_York')).toBeUndefined();
  });

  it('accepts 29 February in a leap year', () => {
    expect(iso(parseApiTime('2028-02-29', 'UTC'))).toBe('2028-02-29T00:00:00.000Z');
  });

  it('throws for a zone that is not one, which is the caller’s mistake', () => {
    expect(() => parseApiTime('2026-11-01', 'Eastern Time (US & Canada)')).toThrow(RangeError);
    expect(() => parseApiTime('2026-11-01', 'Mars/Olympus_Mons')).toThrow(RangeError);
  });
});
