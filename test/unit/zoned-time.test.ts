import { DateTime, Settings } from 'luxon';
import { afterEach, describe, expect, it } from 'vitest';
import { isoWithOffset, parseApiTime } from '../../shared/time.js';
import { isTimeZone, offsetAt, ZonedTime } from '../../shared/zoned-time.js';

/**
 * shared/zoned-time.ts repeats the part of luxon the service used (luxon stays a devDependency for
 * this test only): the same answers on random instants in zones with every kind of transition.
 */
const ZONES = [
  'UTC',
  'America/New_York',
  'America/Los_Angeles',
  'America/Sao_Paulo',
  'Europe/London',
  'Europe/Berlin',
  'Asia/Kolkata',
  'Asia/Kathmandu',
  'Australia/Lord_Howe',
  'Pacific/Chatham',
  'Pacific/Apia',
  'Africa/Casablanca',
  'America/St_Johns',
];

/** A deterministic generator, so every run checks the same instants. */
function random(seed: number): () => number {
  let state = seed;
  return () => ((state = (state * 1103515245 + 12345) % 2 ** 31), state / 2 ** 31);
}

/** The zone's transitions in 2024-2027: whole days scanned, then the hour found by halving. */
const transitions = new Map<string, number[]>();
function transitionsOf(zone: string): number[] {
  const known = transitions.get(zone);
  if (known) return known;
  const out: number[] = [];
  const DAY = 86_400_000;
  for (let ms = Date.UTC(2024, 0, 1); ms < Date.UTC(2028, 0, 1); ms += DAY) {
    if (offsetAt(zone, ms) === offsetAt(zone, ms + DAY)) continue;
    let [low, high] = [ms, ms + DAY];
    while (high - low > 60_000) {
      const middle = low + Math.floor((high - low) / 2);
      if (offsetAt(zone, middle) === offsetAt(zone, low)) low = middle;
      else high = middle;
    }
    out.push(high);
  }
  transitions.set(zone, out);
  return out;
}

/** Random instants from 1950 to 2080, and instants within two hours of each transition of the zone in 2024-2027. */
function instants(zone: string, count: number): number[] {
  const next = random(zone.length * 7919);
  const out = Array.from({ length: count }, () => Math.floor(-631152000000 + next() * 4_102_444_800_000));
  for (const at of transitionsOf(zone)) for (let step = -8; step <= 8; step++) out.push(at + step * 15 * 60_000 + 1);
  return out;
}

const luxonClock = (dt: DateTime) => ({ year: dt.year, month: dt.month, day: dt.day, hour: dt.hour, minute: dt.minute, second: dt.second, millisecond: dt.millisecond });

afterEach(() => {
  Settings.now = () => Date.now();
});

describe('ZonedTime against luxon', () => {
  it.each(ZONES)('reads offsets, wall clocks and weekdays as luxon does in %s', (zone) => {
    for (const ms of instants(zone, 200)) {
      const ours = ZonedTime.at(ms, zone);
      const theirs = DateTime.fromMillis(ms, { zone });
      expect([ours.offset, ours.clock, ours.weekday], `${zone} ${ms}`).toEqual([theirs.offset, luxonClock(theirs), theirs.weekday]);
    }
  });

  it.each(ZONES)('moves by days, sets times, and finds starts and ends of days, weeks and months as luxon does in %s', (zone) => {
    const next = random(zone.length);
    for (const ms of instants(zone, 100)) {
      const ours = ZonedTime.at(ms, zone);
      const theirs = DateTime.fromMillis(ms, { zone });
      const days = Math.floor(next() * 14) - 3;
      const hour = Math.floor(next() * 24);
      const minute = Math.floor(next() * 60);
      expect(
        [ours.plus({ days }).ms, ours.set({ hour, minute, second: 0, millisecond: 0 }).ms, ours.startOf('day').ms, ours.startOf('week').ms, ours.startOf('month').ms, ours.endOfDay().ms],
        `${zone} ${ms} +${days}d ${hour}:${minute}`,
      ).toEqual([
        theirs.plus({ days }).toMillis(),
        theirs.set({ hour, minute, second: 0, millisecond: 0 }).toMillis(),
        theirs.startOf('day').toMillis(),
        theirs.startOf('week').toMillis(),
        theirs.startOf('month').toMillis(),
        theirs.endOf('day').toMillis(),
      ]);
    }
  });

  it.each(ZONES)('turns wall clocks into instants as luxon does in %s, gaps and overlaps included, whatever the time now', (zone) => {
    for (const now of [Date.UTC(2026, 0, 15), Date.UTC(2026, 6, 15)]) {
      Settings.now = () => now;
      for (const ms of instants(zone, 60)) {
        const clock = ZonedTime.at(ms, zone).clock;
        // The same wall clock 30 minutes on, which falls in gaps and overlaps near transitions.
        const shifted = { ...clock, minute: (clock.minute + 30) % 60 };
        expect(ZonedTime.fromWallClock(shifted, zone, now)?.ms, `${zone} ${JSON.stringify(shifted)}`).toBe(DateTime.fromObject(shifted, { zone }).toMillis());
      }
    }
  });

  it('shows times with their offset as luxon did (isoWithOffset)', () => {
    const luxonIso = (value: string | Date, zone: string) => {
      const dt = typeof value === 'string' ? DateTime.fromISO(value, { zone: 'utc' }) : DateTime.fromJSDate(value);
      const out = dt.setZone(zone).toISO({ suppressMilliseconds: false, includeOffset: true })!;
      return out.endsWith('Z') ? `${out.slice(0, -1)}+00:00` : out;
    };
    for (const zone of ZONES) {
      for (const ms of instants(zone, 30)) {
        const stored = new Date(ms).toISOString();
        expect(isoWithOffset(stored, zone)).toBe(luxonIso(stored, zone));
        expect(isoWithOffset(new Date(ms), zone)).toBe(luxonIso(new Date(ms), zone));
      }
    }
    for (const stored of ['2026-03-08', '2026-03-08T07:30', '2026-03-08T07:30:15.5+05:30', '2026-03-08T07:30:15,123456-0300']) {
      expect(isoWithOffset(stored, 'America/New_York')).toBe(luxonIso(stored, 'America/New_York'));
    }
    expect(() => isoWithOffset('yesterday', 'UTC')).toThrow(RangeError);
  });

  it('keeps the documented answers of parseApiTime in gaps and overlaps, and knows zone names as luxon did', () => {
    expect(parseApiTime('2026-03-08 02:30', 'America/New_York')?.toISOString()).toBe('2026-03-08T07:30:00.000Z');
    expect(parseApiTime('2026-02-30 10:00', 'America/New_York')).toBeUndefined();
    expect(parseApiTime('2026-11-01 12:00:00 +0530', 'UTC')?.toISOString()).toBe('2026-11-01T06:30:00.000Z');
    for (const name of ['Europe/Berlin', 'america/new_york', 'Mars/Olympus', '', 'Etc/GMT+3']) expect(isTimeZone(name), name).toBe(name ? DateTime.local().setZone(name).isValid : false);
  });
});
