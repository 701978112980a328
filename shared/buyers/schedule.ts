import { ZonedTime } from '../zoned-time.js';

/**
 * Weekly schedules (`business_hours_schedule`, `buyer_conversions_schedule`): per item a list of
 * `{ day: 0..6 (Sunday = 0), times: ["HH:MM..HH:MM", ...] }`. Pure; routing and the buyer
 * columns use the same reading.
 *
 * A range whose end is before its start spans midnight: "22:00..02:00" on Friday covers Friday
 * 22:00 to Saturday 02:00. "24:00" may end a range ("18:00..24:00"). A range that starts and
 * ends at the same minute is refused as ambiguous (write "00:00..24:00" for a whole day).
 */
export interface TimeRange {
  /** Minutes after midnight. */
  start: number;
  end: number;
}

const RANGE = /^([01]\d|2[0-4]):([0-5]\d)\.\.([01]\d|2[0-4]):([0-5]\d)$/;

export function parseTimeRange(text: string): { ok: true; range: TimeRange } | { ok: false; error: string } {
  const match = RANGE.exec(text.trim());
  if (!match) return { ok: false, error: `"${text}" is not a time range like 09:00..17:30` };
  const start = Number(match[1]) * 60 + Number(match[2]);
  const end = Number(match[3]) * 60 + Number(match[4]);
  if (start >= 24 * 60) return { ok: false, error: `"${text}" starts at 24:00` };
  if (end > 24 * 60) return { ok: false, error: `"${text}" ends after 24:00` };
  if (start === end) return { ok: false, error: `"${text}" starts and ends at the same time` };
  return { ok: true, range: { start, end } };
}

export interface ScheduleDay {
  day: number;
  times: string[];
}

/** Does `now`, read in `timeZone`, fall inside the weekly schedule? */
export function isWithinSchedule(schedule: readonly ScheduleDay[], now: Date, timeZone: string): boolean {
  const local = ZonedTime.at(now, timeZone);
  const today = local.weekday % 7; // ISO: Monday = 1 ... Sunday = 7
  const yesterday = (today + 6) % 7;
  const minute = local.clock.hour * 60 + local.clock.minute;
  return schedule.some((entry) =>
    entry.times.some((text) => {
      const parsed = parseTimeRange(text);
      if (!parsed.ok) return false;
      const { start, end } = parsed.range;
      if (start < end) return entry.day === today && minute >= start && minute < end;
      // Spans midnight: the evening part today, the morning part on the next day.
      return (entry.day === today && minute >= start) || (entry.day === yesterday && minute < end);
    }),
  );
}

/** The first item whose schedule covers `now` (items without a schedule never match). */
export function activeScheduleItem<T extends { schedule?: readonly ScheduleDay[] | null }>(items: readonly T[] | null | undefined, now: Date, timeZone: string): T | undefined {
  return (items ?? []).find((item) => item.schedule && isWithinSchedule(item.schedule, now, timeZone));
}
