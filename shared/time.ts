import { DateTime } from 'luxon';

/** Current time; a function so callers can be given a fixed clock in tests. */
export type Clock = () => Date;
export const systemClock: Clock = () => new Date();

/** ISO 8601 with a numeric offset (the reference's format), e.g. 2026-11-21T05:31:00.000+00:00. */
export function isoWithOffset(value: string | Date, timeZone = 'UTC'): string {
  const dt = typeof value === 'string' ? DateTime.fromISO(value, { zone: 'utc' }) : DateTime.fromJSDate(value);
  const out = dt.setZone(timeZone).toISO({ suppressMilliseconds: false, includeOffset: true });
  if (out === null) throw new RangeError(`invalid time ${String(value)}`);
  // Luxon writes "Z" for UTC only with a named option; keep the numeric offset the reference shows.
  return out.endsWith('Z') ? `${out.slice(0, -1)}+00:00` : out;
}

/** Is this an IANA time zone name the runtime knows? */
export function isValidTimeZone(name: string): boolean {
  return DateTime.local().setZone(name).isValid;
}
