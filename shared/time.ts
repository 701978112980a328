import { isTimeZone, type WallClock, type Zone, ZonedTime } from './zoned-time.js';

/** ISO 8601 with a numeric offset (the reference's format), e.g. 2026-11-21T05:31:00.000+00:00. */
export function isoWithOffset(value: string | Date, timeZone = 'UTC'): string {
  const ms = typeof value === 'string' ? parseStoredTime(value) : value.getTime();
  const time = ZonedTime.at(ms, timeZone);
  if (!time.isValid) throw new RangeError(`invalid time ${String(value)}`);
  const out = time.toIso();
  // Keep the numeric offset the reference shows, never "Z".
  return out.endsWith('Z') ? `${out.slice(0, -1)}+00:00` : out;
}

/**
 * A stored time (ISO 8601 extended: a date, optionally a time and an offset; UTC without one), in
 * ms; NaN for anything else. The forms luxon's fromISO read that the store holds.
 */
const STORED_TIME = /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d{1,9}))?)?)?(Z|[+-]\d{2}(?::?\d{2})?)?$/;

/** The wall clock of a matched date and time (the regexes' groups; a missing time part is 0, the fraction is cut to ms). */
function wallClockOf(year: string, month: string, day: string, hour?: string, minute?: string, second?: string, fraction?: string): WallClock {
  return {
    year: Number(year),
    month: Number(month),
    day: Number(day),
    hour: Number(hour ?? '0'),
    minute: Number(minute ?? '0'),
    second: Number(second ?? '0'),
    millisecond: Number((fraction ?? '').padEnd(3, '0').slice(0, 3)),
  };
}

function parseStoredTime(text: string): number {
  const match = STORED_TIME.exec(text);
  if (match === null) return NaN;
  const [, year, month, day, hour, minute, second, fraction, offset] = match;
  const zone = offset === undefined ? offsetZone('Z') : offsetZone(offset);
  if (zone === undefined) return NaN;
  return ZonedTime.fromWallClock(wallClockOf(year!, month!, day!, hour, minute, second, fraction), zone)?.ms ?? NaN;
}

/** Is this an IANA time zone name the runtime knows? */
export function isValidTimeZone(name: string): boolean {
  return isTimeZone(name);
}

// The API's time parameters (created_at_from, created_at_to, ...): "YYYY-MM-DD HH:MM:SS +ZZZZ" as documented,
// plus the forms clients send in practice. Groups: date, then an optional time after "T" or spaces, then an
// optional offset ("Z", "UTC", "+05:30", "+0530", "+05") or, after whitespace, bare "HHMM"/"HH:MM" digits:
// a "+" that form-decoding of an unescaped query string turned into a space ("... 12:00:00 +0000" arrives
// as "... 12:00:00  0000"). A "-" survives decoding, so only positive offsets need that fallback. Months,
// days and hours may have one digit, as PHP's date('Y-n-j G:i:s') writes them (docs/compatibility.md).
const API_TIME =
  /^(\d{4})-(\d{1,2})-(\d{1,2})(?:(?:T| +)(\d{1,2}):(\d{2})(?::(\d{2})(?:[.,](\d{1,9}))?)?(?: *(Z|UTC|[+-]\d{2}(?::?\d{2})?)| +(\d{2}:?\d{2}))?)?$/;

/** Largest offset accepted, in hours; real zones stay within -12..+14. */
const MAX_OFFSET_HOURS = 18;

function offsetZone(text: string): Zone | undefined {
  if (text === 'Z' || text === 'UTC') return { fixedOffsetMinutes: 0 };
  const match = /^([+-]?)(\d{2}):?(\d{2})?$/.exec(text);
  if (match === null) return undefined;
  const hours = Number(match[2]);
  const minutes = Number(match[3] ?? '0');
  if (hours > MAX_OFFSET_HOURS || minutes > 59) return undefined;
  const sign = match[1] === '-' ? -1 : 1;
  return { fixedOffsetMinutes: sign * (hours * 60 + minutes) };
}

/**
 * Parse a time parameter of the API. Accepted (surrounding whitespace ignored):
 * - `2026-11-01 12:00:00 +0000`, also `-0500`, `+05:30`, `+05`, `Z`, `UTC`, with or without the space;
 * - one-digit months, days and hours: `2026-1-5 9:00:00 -0500`;
 * - `2026-11-01 12:00:00` and `2026-11-01 12:00` (no seconds): wall-clock time in `timeZone`;
 * - `2026-11-01`: midnight starting that day in `timeZone`;
 * - ISO 8601 extended format: `2026-11-21T05:31:00Z`, `2026-11-21T05:31:00.123-05:00`, `2026-11-21T05:31`
 *   (fractions of a second beyond milliseconds are truncated).
 * An explicit offset wins over `timeZone`. Returns undefined for anything else and for impossible values
 * (2026-02-30, 25:00, minute 60, second 60, offset beyond ±18:00); hour 24 ("24:00", which luxon would read
 * as the next midnight) is rejected too.
 *
 * `timeZone` is an IANA name (resolve client input with resolveTimeZone first); an unknown one throws a
 * RangeError, as that is the caller's mistake, not the client's.
 *
 * Daylight-saving transitions follow luxon (3.7; shared/zoned-time.ts repeats its arithmetic) for wall-clock
 * times without an offset:
 * - in a gap (a local time that does not exist, e.g. 2026-03-08 02:30 in America/New_York) the time is moved
 *   forward by the length of the gap: 03:30 EDT = 07:30Z;
 * - in an overlap (a local time that happens twice, e.g. 2026-11-01 01:30 in America/New_York) luxon takes
 *   the later instant, after the clocks went back: 01:30 EST = 06:30Z. (Rails' TimeZone#parse takes the
 *   earlier, daylight-saving one, 05:30Z; clients wanting either should send an offset.)
 */
export function parseApiTime(text: string, timeZone: string): Date | undefined {
  if (!isValidTimeZone(timeZone)) throw new RangeError(`invalid time zone ${timeZone}`);
  const match = API_TIME.exec(text.trim());
  if (match === null) return undefined;
  const [, year, month, day, hour, minute, second, fraction, offset, spaceDecodedOffset] = match;
  if (hour === '24') return undefined;
  let zone: Zone = timeZone;
  if (offset !== undefined || spaceDecodedOffset !== undefined) {
    const fixed = offsetZone(offset ?? spaceDecodedOffset ?? '');
    if (fixed === undefined) return undefined;
    zone = fixed;
  }
  const time = ZonedTime.fromWallClock(wallClockOf(year!, month!, day!, hour, minute, second, fraction), zone);
  return time ? new Date(time.ms) : undefined;
}

/** How far another function's clock may run ahead of this one's (records are stamped where they arrive). */
export const CLOCK_SLACK_MS = 60_000;
