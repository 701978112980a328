import { ZonedTime } from '../zoned-time.js';
import { resolveTimeZone } from '../time-zones.js';

/**
 * The dial condition `during_daylight_hours`: calls only between 08:00 and 21:00 local time of
 * the lead (the hours US telemarketing rules allow, and what callers accept elsewhere too). Pure.
 */
export const DAYLIGHT_START_HOUR = 8;
export const DAYLIGHT_END_HOUR = 21;

/**
 * The lead's zone: its `time_zone` token when that names a zone (IANA or Rails name), else the
 * schedule's time zone, else UTC.
 */
export function leadTimeZone(tokens: Record<string, unknown>, scheduleZone: unknown): string {
  const own = typeof tokens.time_zone === 'string' ? resolveTimeZone(tokens.time_zone) : undefined;
  if (own) return own;
  const scheduled = typeof scheduleZone === 'string' ? resolveTimeZone(scheduleZone) : undefined;
  return scheduled ?? 'UTC';
}

/** Inside the window at `at` in `zone`, or the next 08:00 there. */
export function daylight(at: Date, zone: string): { inside: true } | { inside: false; next: Date } {
  const local = ZonedTime.at(at, zone);
  const hour = local.clock.hour;
  if (hour >= DAYLIGHT_START_HOUR && hour < DAYLIGHT_END_HOUR) return { inside: true };
  const day = hour < DAYLIGHT_START_HOUR ? local : local.plus({ days: 1 });
  return { inside: false, next: new Date(day.set({ hour: DAYLIGHT_START_HOUR, minute: 0, second: 0, millisecond: 0 }).ms) };
}
