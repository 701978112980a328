import { describe, expect, it } from 'vitest';
import { isoWithOffset } from '../../shared/time.js';
import { offsetAt, ZonedTime } from '../../shared/zoned-time.js';

/**
 * The documented answers of shared/zoned-time.ts (its header) at named transitions, written out
 * rather than compared with luxon: a wall clock in a gap moves forward by the gap; in an overlap
 * the offset we start from decides (the zone's offset at `now` for fromWallClock, the instant's own
 * offset for set and plus); zones whose offsets are not whole hours keep their minutes.
 */
const JANUARY = Date.UTC(2026, 0, 15);
const JULY = Date.UTC(2026, 6, 15);
const clock = (year: number, month: number, day: number, hour: number, minute: number) => ({ year, month, day, hour, minute, second: 0, millisecond: 0 });
const iso = (time: ZonedTime | undefined) => (time ? new Date(time.ms).toISOString() : undefined);

describe('zoned time at daylight-saving transitions', () => {
  it.each([
    // [zone, wall clock in the gap, the instant it becomes (the clock moved forward by the gap), offset there]
    ['America/New_York', clock(2026, 3, 8, 2, 30), '2026-03-08T07:30:00.000Z', -240],
    ['Europe/Berlin', clock(2026, 3, 29, 2, 15), '2026-03-29T01:15:00.000Z', 120],
    // Lord Howe moves its clock by 30 minutes: 02:00 becomes 02:30.
    ['Australia/Lord_Howe', clock(2026, 10, 4, 2, 15), '2026-10-03T15:45:00.000Z', 660],
  ] as const)('spring forward in %s: a wall clock in the gap moves forward by the gap, whatever the time now', (zone, wall, instant, offset) => {
    for (const now of [JANUARY, JULY]) {
      const time = ZonedTime.fromWallClock(wall, zone, now);
      expect(iso(time)).toBe(instant);
      expect(time?.offset).toBe(offset);
    }
  });

  it.each([
    // [zone, wall clock in the overlap, instant with January's offset, with July's]
    ['America/New_York', clock(2026, 11, 1, 1, 30), '2026-11-01T06:30:00.000Z', '2026-11-01T05:30:00.000Z'],
    // Lord Howe (southern hemisphere) is on daylight time in January: +11:00, then +10:30.
    ['Australia/Lord_Howe', clock(2026, 4, 5, 1, 45), '2026-04-04T14:45:00.000Z', '2026-04-04T15:15:00.000Z'],
  ] as const)('fall back in %s: a wall clock in the overlap takes the offset at now', (zone, wall, withJanuary, withJuly) => {
    expect(iso(ZonedTime.fromWallClock(wall, zone, JANUARY))).toBe(withJanuary);
    expect(iso(ZonedTime.fromWallClock(wall, zone, JULY))).toBe(withJuly);
  });

  it('fall back: set keeps the offset of the time it starts from, on either side of the change', () => {
    const beforeChange = ZonedTime.at(Date.parse('2026-11-01T04:10:00Z'), 'America/New_York'); // 00:10 EDT
    const afterChange = ZonedTime.at(Date.parse('2026-11-01T07:10:00Z'), 'America/New_York'); // 02:10 EST
    expect(iso(beforeChange.set({ hour: 1, minute: 30 }))).toBe('2026-11-01T05:30:00.000Z');
    expect(iso(afterChange.set({ hour: 1, minute: 30 }))).toBe('2026-11-01T06:30:00.000Z');
  });

  it('days of 23 and 25 hours: a day later is the same wall clock, and a day ends at its own last millisecond', () => {
    const springDay = ZonedTime.at(Date.parse('2026-03-08T15:00:00Z'), 'America/New_York');
    expect(iso(springDay.startOf('day'))).toBe('2026-03-08T05:00:00.000Z');
    expect(iso(springDay.endOfDay())).toBe('2026-03-09T03:59:59.999Z');
    expect(iso(ZonedTime.at(Date.parse('2026-03-07T15:00:00Z'), 'America/New_York').plus({ days: 1 }))).toBe('2026-03-08T14:00:00.000Z');
    const fallDay = ZonedTime.at(Date.parse('2026-11-01T15:00:00Z'), 'America/New_York');
    expect((fallDay.endOfDay().ms + 1 - fallDay.startOf('day').ms) / 3_600_000).toBe(25);
  });

  it('Lord Howe: offsets of +10:30 and +11:00, and the half-hour change shows in the clock', () => {
    expect(offsetAt('Australia/Lord_Howe', JANUARY)).toBe(660);
    expect(offsetAt('Australia/Lord_Howe', JULY)).toBe(630);
    expect(ZonedTime.at(Date.parse('2026-10-03T15:29:00Z'), 'Australia/Lord_Howe').clock).toMatchObject({ day: 4, hour: 1, minute: 59 });
    expect(ZonedTime.at(Date.parse('2026-10-03T15:30:00Z'), 'Australia/Lord_Howe').clock).toMatchObject({ day: 4, hour: 2, minute: 30 });
    expect(isoWithOffset('2026-07-01T00:00:00Z', 'Australia/Lord_Howe')).toBe('2026-07-01T10:30:00.000+10:30');
  });

  it.each([
    ['Asia/Kathmandu', 345, '2026-01-01T05:45:00.000+05:45', '2025-12-31T18:15:00.000Z'],
    ['Asia/Kolkata', 330, '2026-01-01T05:30:00.000+05:30', '2025-12-31T18:30:00.000Z'],
    ['America/St_Johns', -210, '2025-12-31T20:30:00.000-03:30', '2025-12-31T03:30:00.000Z'],
  ] as const)('%s: an offset that is not whole hours keeps its minutes in the clock, the ISO text and the day start', (zone, offset, shown, dayStart) => {
    const time = ZonedTime.at(Date.UTC(2026, 0, 1), zone);
    expect(time.offset).toBe(offset);
    expect(isoWithOffset(new Date(Date.UTC(2026, 0, 1)), zone)).toBe(shown);
    expect(iso(time.startOf('day'))).toBe(dayStart);
  });

  it('refuses impossible wall clocks and unknown zones', () => {
    expect(ZonedTime.fromWallClock(clock(2026, 2, 29, 10, 0), 'UTC')).toBeUndefined();
    expect(ZonedTime.fromWallClock(clock(2026, 3, 8, 24, 0), 'America/New_York')).toBeUndefined();
    expect(ZonedTime.fromWallClock(clock(2026, 3, 8, 10, 0), 'Mars/Olympus')).toBeUndefined();
    expect(offsetAt('Mars/Olympus', JANUARY)).toBeNaN();
    expect(offsetAt('x+05', JANUARY)).toBeNaN();
  });
});
