import { isTimeZone, offsetAt } from './zoned-time.js';
import { RAILS_TIME_ZONE_NAMES } from './time-zone-names.js';

/** One entry of `GET /api/v1/collections/time_zone`. */
export interface TimeZoneEntry {
  /** Rails name, e.g. "Eastern Time (US & Canada)". */
  name: string;
  /** IANA zone it stands for, e.g. "America/New_York". */
  iana: string;
  /** Offset from UTC at the time asked about, "+HH:MM" / "-HH:MM". */
  utc_offset: string;
  /** Rails' TimeZone#to_s, e.g. "(GMT-05:00) Eastern Time (US & Canada)". */
  label: string;
}

// A Map, not an object literal: a lookup of "constructor" or "__proto__" must not find anything.
const railsToIana: ReadonlyMap<string, string> = new Map(RAILS_TIME_ZONE_NAMES);

// Correct spelling of IANA names by their lower-case form, so "america/new_york" (which the runtime accepts,
// as its zone lookup ignores case) resolves to "America/New_York". Built on first use.
let ianaSpelling: Map<string, string> | undefined;
function canonicalSpelling(name: string): string {
  if (ianaSpelling === undefined) {
    ianaSpelling = new Map();
    for (const zone of Intl.supportedValuesOf('timeZone')) ianaSpelling.set(zone.toLowerCase(), zone);
    // After the runtime's list: the spellings Rails uses (Asia/Kolkata, Europe/Kyiv) win over ICU's older links.
    for (const [, zone] of RAILS_TIME_ZONE_NAMES) ianaSpelling.set(zone.toLowerCase(), zone);
  }
  return ianaSpelling.get(name.toLowerCase()) ?? name;
}

/**
 * The IANA zone for a time zone name a client sent: a Rails name (exact, case-sensitive match as Rails does,
 * after trimming; "UTC" → "Etc/UTC") or an IANA name the runtime knows (returned with its usual spelling where
 * the runtime lists it). Undefined for anything else, including specifiers luxon read such as "local",
 * "system" or "UTC+5", which are not zone names.
 */
export function resolveTimeZone(name: string): string | undefined {
  const trimmed = name.trim();
  if (trimmed === '') return undefined;
  const fromRails = railsToIana.get(trimmed);
  if (fromRails !== undefined) return fromRails;
  return isTimeZone(trimmed) ? canonicalSpelling(trimmed) : undefined;
}

/** Minutes east of UTC as "+HH:MM" / "-HH:MM" (Rails' seconds_to_utc_offset with a colon). */
export function formatUtcOffset(offsetMinutes: number): string {
  const sign = offsetMinutes < 0 ? '-' : '+';
  const abs = Math.abs(offsetMinutes);
  const hours = String(Math.floor(abs / 60)).padStart(2, '0');
  const minutes = String(abs % 60).padStart(2, '0');
  return `${sign}${hours}:${minutes}`;
}

/**
 * What `GET /api/v1/collections/time_zone` serves: every Rails time zone with its IANA zone and its offset
 * at `now`, sorted like Rails' `ActiveSupport::TimeZone.all` (by current offset, then by name compared
 * code unit by code unit, as Ruby compares strings).
 */
export function timeZoneCollection(now: Date = new Date()): TimeZoneEntry[] {
  const rows = RAILS_TIME_ZONE_NAMES.map(([name, iana]) => {
    const offset = offsetAt(iana, now.getTime());
    if (!Number.isFinite(offset)) throw new RangeError(`time zone ${iana} (${name}) is unknown to this runtime`);
    return { name, iana, offset };
  });
  rows.sort((a, b) => a.offset - b.offset || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return rows.map(({ name, iana, offset }) => {
    const utcOffset = formatUtcOffset(offset);
    return { name, iana, utc_offset: utcOffset, label: `(GMT${utcOffset}) ${name}` };
  });
}
