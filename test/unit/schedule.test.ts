import { describe, expect, it } from 'vitest';
import * as v from 'valibot';
import { activeScheduleItem, isWithinSchedule, parseTimeRange } from '../../shared/buyers/schedule.js';
import { scheduleDaySchema } from '../../shared/buyers/schedule-schema.js';

describe('parseTimeRange', () => {
  it('reads ranges, including one ending at 24:00 and one spanning midnight', () => {
    expect(parseTimeRange('09:00..17:30')).toEqual({ ok: true, range: { start: 540, end: 1050 } });
    expect(parseTimeRange('18:00..24:00')).toEqual({ ok: true, range: { start: 1080, end: 1440 } });
    expect(parseTimeRange('22:00..02:00')).toEqual({ ok: true, range: { start: 1320, end: 120 } });
  });
  it.each(['9:00..17:00', '09:00-17:00', '09:60..10:00', '25:00..26:00', '24:00..02:00', '24:30..02:00', '10:00..24:30', '10:00..10:00', '', 'x', '09:00..17:00x', 'x09:00..17:00', '109:00..17:00'])(
    'refuses %j, naming it in the error',
    (text) => {
      const parsed = parseTimeRange(text);
      expect(parsed.ok).toBe(false);
      // The error reaches API clients (422 on the schedule field): it quotes what they sent.
      if (!parsed.ok) expect(parsed.error).toContain(`"${text}"`);
    },
  );
  it('ignores surrounding spaces', () => {
    expect(parseTimeRange(' 09:00..17:30 ')).toEqual({ ok: true, range: { start: 540, end: 1050 } });
  });
});

describe('scheduleDaySchema', () => {
  it('accepts days 0..6 as numbers or digit strings', () => {
    expect(v.parse(scheduleDaySchema, { day: '0', times: ['09:00..17:00'] })).toEqual({ day: 0, times: ['09:00..17:00'] });
    expect(v.parse(scheduleDaySchema, { day: '06', times: [] })).toEqual({ day: 6, times: [] });
  });
  it('refuses a day outside 0..6 and a malformed range', () => {
    expect(v.safeParse(scheduleDaySchema, { day: 7, times: [] }).success).toBe(false);
    expect(v.safeParse(scheduleDaySchema, { day: 1, times: ['17:00'] }).success).toBe(false);
  });
  it.each<[string, unknown, string]>([
    ['a day above 6', { day: 7, times: [] }, 'is not a day (0..6, Sunday = 0)'],
    ['a negative day', { day: -1, times: [] }, 'is not a day (0..6, Sunday = 0)'],
    ['a fractional day', { day: 1.5, times: [] }, 'is not a day (0..6, Sunday = 0)'],
    ['a day with letters after', { day: '1a', times: [] }, 'is not a day (0..6, Sunday = 0)'],
    ['a day with letters before', { day: 'a1', times: [] }, 'is not a day (0..6, Sunday = 0)'],
    ['times that are not a list', { day: 1, times: '09:00..17:00' }, 'is not a list of time ranges'],
    ['a time that is not text', { day: 1, times: [900] }, 'is not a time range'],
    ['a malformed range', { day: 1, times: ['17:00'] }, '"17:00" is not a time range like 09:00..17:30'],
    ['something that is not a day', 'monday', 'is not a schedule day'],
  ])('explains %s', (_label, input, message) => {
    const result = v.safeParse(scheduleDaySchema, input);
    expect(result.success).toBe(false);
    expect(result.issues?.map((issue) => issue.message)).toContain(message);
  });
});

describe('isWithinSchedule', () => {
  // 2026-11-20 is a Friday.
  const friday = [{ day: 5, times: ['09:00..17:00'] }];

  it('reads the time in the buyer\'s zone', () => {
    // 14:30Z is 09:30 in New York: open there, not yet in Los Angeles (06:30).
    expect(isWithinSchedule(friday, new Date('2026-11-20T14:30:00Z'), 'America/New_York')).toBe(true);
    expect(isWithinSchedule(friday, new Date('2026-11-20T14:30:00Z'), 'America/Los_Angeles')).toBe(false);
    // The end minute is outside.
    expect(isWithinSchedule(friday, new Date('2026-11-20T22:00:00Z'), 'America/New_York')).toBe(false);
  });

  it('is open from the opening minute itself up to, not including, the closing minute', () => {
    // Friday 09:00..17:00 in New York (EST, UTC-5): 09:00 local is 14:00Z, 17:00 local is 22:00Z.
    const at = (utc: string) => isWithinSchedule(friday, new Date(utc), 'America/New_York');
    expect(at('2026-11-20T13:59:00Z')).toBe(false); // 08:59: one minute before opening
    expect(at('2026-11-20T13:59:59Z')).toBe(false); // 08:59:59: still the minute before
    expect(at('2026-11-20T14:00:00Z')).toBe(true); // 09:00 exactly: open
    expect(at('2026-11-20T21:59:59Z')).toBe(true); // 16:59:59: the last open minute
    expect(at('2026-11-20T22:00:00Z')).toBe(false); // 17:00: the end minute is outside
    // The same instant read in UTC is 14:00, so it is the zone that makes 14:00Z the opening minute.
    expect(isWithinSchedule([{ day: 5, times: ['14:00..15:00'] }], new Date('2026-11-20T14:00:00Z'), 'UTC')).toBe(true);
    expect(isWithinSchedule([{ day: 5, times: ['14:01..15:00'] }], new Date('2026-11-20T14:00:00Z'), 'UTC')).toBe(false);
  });

  it('opens a range spanning midnight at its opening minute and closes it at its end minute the next day', () => {
    const nights = [{ day: 5, times: ['22:00..02:00'] }];
    expect(isWithinSchedule(nights, new Date('2026-11-20T21:59:00Z'), 'UTC')).toBe(false); // Friday 21:59
    expect(isWithinSchedule(nights, new Date('2026-11-20T22:00:00Z'), 'UTC')).toBe(true); // Friday 22:00 exactly
    expect(isWithinSchedule(nights, new Date('2026-11-21T00:00:00Z'), 'UTC')).toBe(true); // Saturday midnight
    expect(isWithinSchedule(nights, new Date('2026-11-19T23:00:00Z'), 'UTC')).toBe(false); // Thursday 23:00: another day's evening
  });

  it('covers the whole day for 00:00..24:00 and nothing of the next day', () => {
    const fridayAllDay = [{ day: 5, times: ['00:00..24:00'] }];
    expect(isWithinSchedule(fridayAllDay, new Date('2026-11-20T00:00:00Z'), 'UTC')).toBe(true);
    expect(isWithinSchedule(fridayAllDay, new Date('2026-11-20T23:59:59Z'), 'UTC')).toBe(true);
    expect(isWithinSchedule(fridayAllDay, new Date('2026-11-21T00:00:00Z'), 'UTC')).toBe(false);
    expect(isWithinSchedule(fridayAllDay, new Date('2026-11-19T23:59:00Z'), 'UTC')).toBe(false);
  });

  it('covers the next morning for a range spanning midnight, and not the morning before', () => {
    const nights = [{ day: 5, times: ['22:00..02:00'] }];
    expect(isWithinSchedule(nights, new Date('2026-11-20T23:00:00Z'), 'UTC')).toBe(true); // Friday 23:00
    expect(isWithinSchedule(nights, new Date('2026-11-21T01:59:00Z'), 'UTC')).toBe(true); // Saturday 01:59
    expect(isWithinSchedule(nights, new Date('2026-11-21T02:00:00Z'), 'UTC')).toBe(false);
    expect(isWithinSchedule(nights, new Date('2026-11-20T01:00:00Z'), 'UTC')).toBe(false); // Friday 01:00
  });

  it('follows the zone across a daylight saving change', () => {
    // US clocks go back on Sunday 2026-11-01: on the Saturday before, 09:30 EDT is 13:30Z;
    // on the Monday after, 09:30 EST is 14:30Z.
    const weekdays = [
      { day: 6, times: ['09:00..10:00'] },
      { day: 1, times: ['09:00..10:00'] },
    ];
    expect(isWithinSchedule(weekdays, new Date('2026-10-31T13:30:00Z'), 'America/New_York')).toBe(true);
    expect(isWithinSchedule(weekdays, new Date('2026-11-02T13:30:00Z'), 'America/New_York')).toBe(false);
    expect(isWithinSchedule(weekdays, new Date('2026-11-02T14:30:00Z'), 'America/New_York')).toBe(true);
  });
});

describe('isWithinSchedule with several ranges', () => {
  it('is open in any of a day\'s ranges and skips a stored range it cannot read', () => {
    const split = [{ day: 5, times: ['09:00..12:00', '13:00..17:00'] }];
    expect(isWithinSchedule(split, new Date('2026-11-20T10:00:00Z'), 'UTC')).toBe(true);
    expect(isWithinSchedule(split, new Date('2026-11-20T14:00:00Z'), 'UTC')).toBe(true);
    expect(isWithinSchedule(split, new Date('2026-11-20T12:30:00Z'), 'UTC')).toBe(false);
    const damaged = [{ day: 5, times: ['9 to 5', '13:00..17:00'] }];
    expect(isWithinSchedule(damaged, new Date('2026-11-20T14:00:00Z'), 'UTC')).toBe(true);
    expect(isWithinSchedule([{ day: 5, times: ['9 to 5'] }], new Date('2026-11-20T10:00:00Z'), 'UTC')).toBe(false);
  });
});

describe('activeScheduleItem', () => {
  it('returns the first item covering now', () => {
    const items = [
      { attempt_hourly_limit: 5, schedule: [{ day: 5, times: ['09:00..12:00'] }] },
      { attempt_hourly_limit: 9, schedule: [{ day: 5, times: ['00:00..24:00'] }] },
    ];
    expect(activeScheduleItem(items, new Date('2026-11-20T10:00:00Z'), 'UTC')?.attempt_hourly_limit).toBe(5);
    expect(activeScheduleItem(items, new Date('2026-11-20T13:00:00Z'), 'UTC')?.attempt_hourly_limit).toBe(9);
    expect(activeScheduleItem(items, new Date('2026-11-21T13:00:00Z'), 'UTC')).toBeUndefined();
    expect(activeScheduleItem(null, new Date(), 'UTC')).toBeUndefined();
  });
});
