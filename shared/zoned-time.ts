import { TZDate, tzOffset } from '@date-fns/tz';

/**
 * Instants seen on a time zone's wall clock, and wall-clock times turned back into instants, over
 * `@date-fns/tz` (issue 32: a maintained library instead of our own zone arithmetic; luxon cost
 * 70 KB of every bundle, this about 5 KB). The library reads each zone's offset at an instant
 * (`tzOffset`, from the runtime's Intl zone data) and the wall clock there (`TZDate`). What stays
 * here is the service's policy for wall clocks that a transition makes odd, which the library
 * answers differently (it resolves them through the host's own zone), kept as luxon had it
 * because schedules, caps periods and API times were written against it
 * (test/unit/zoned-time.test.ts still compares every answer with luxon's):
 * - a wall clock in a gap (spring forward) is moved forward by the gap: 02:30 on a New York
 *   spring-forward day is 03:30 EDT;
 * - a wall clock in an overlap (fall back) takes the offset the clock had at the instant we start
 *   from: `set`/`plus`/`startOf` keep the offset of the time they start from where it still
 *   applies, and `fromWallClock` uses the zone's offset at `now` (luxon's DateTime.fromObject).
 * test/unit/zoned-time-dst.test.ts pins these on named transitions. Pure.
 */

export interface WallClock {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
  millisecond: number;
}

/** A zone: an IANA name, or a fixed offset east of UTC in minutes. */
export type Zone = string | { fixedOffsetMinutes: number };

/**
 * Is this a zone name the runtime's Intl knows (luxon's IANAZone.isValidZone)? Not a UTC offset:
 * Node 24's Intl (Lambda's runtime) also takes "+05:00", "-0530" or "−05:00" as a time zone,
 * which Node 20's refused, and a zone name never starts with a sign. `tzOffset` also reads bare
 * offsets such as `x+05`, which are no zone names either.
 */
export function isTimeZone(name: string): boolean {
  if (!name || /^[+\-\u2212]/.test(name)) return false;
  let known = zoneNames.get(name);
  if (known === undefined) {
    try {
      new Intl.DateTimeFormat('en-US', { timeZone: name });
      known = true;
    } catch {
      known = false;
    }
    if (zoneNames.size < ZONE_NAMES_LIMIT) zoneNames.set(name, known);
  }
  return known;
}

/** Names asked about, and whether Intl knows them (bounded: names may come from requests). */
const zoneNames = new Map<string, boolean>();
const ZONE_NAMES_LIMIT = 2000;

/** Milliseconds since the epoch of a wall clock read as UTC (years 0-99 stay as given, not 19xx). */
export function wallClockAsUtc(clock: WallClock): number {
  const date = new Date(Date.UTC(2000, 0, 1));
  date.setUTCFullYear(clock.year, clock.month - 1, clock.day);
  date.setUTCHours(clock.hour, clock.minute, clock.second, clock.millisecond);
  return date.getTime();
}

/** The zone's offset east of UTC, in minutes, at an instant; NaN for an unknown zone or instant. */
export function offsetAt(zone: Zone, ms: number): number {
  if (typeof zone !== 'string') return zone.fixedOffsetMinutes;
  if (Number.isNaN(ms) || !isTimeZone(zone)) return NaN;
  // `|| 0`: the library answers -0 for UTC.
  return tzOffset(zone, new Date(ms)) || 0;
}

/** The wall clock at `ms` in `zone` whose offset there is `offset`. */
function clockOf(ms: number, zone: Zone, offset: number): WallClock {
  // A fixed offset is no zone name for Intl; its clock is UTC's, shifted.
  const date = typeof zone === 'string' ? new TZDate(ms, zone) : new TZDate(ms + offset * 60_000, 'UTC');
  return {
    year: date.getFullYear(),
    month: date.getMonth() + 1,
    day: date.getDate(),
    hour: date.getHours(),
    minute: date.getMinutes(),
    second: date.getSeconds(),
    millisecond: date.getMilliseconds(),
  };
}

/**
 * The instant of a wall clock (as UTC ms) in `zone`, starting from the offset guess `offset`
 * (luxon's fixOffset): the guess if it holds there, else the offset found there; in a gap the two
 * disagree and the later wall clock wins (the time moves forward by the gap).
 */
function fixOffset(localMs: number, offset: number, zone: Zone): [number, number] {
  let guess = localMs - offset * 60_000;
  const second = offsetAt(zone, guess);
  if (offset === second) return [guess, offset];
  guess -= (second - offset) * 60_000;
  const third = offsetAt(zone, guess);
  if (second === third) return [guess, second];
  return [localMs - Math.min(second, third) * 60_000, Math.max(second, third)];
}

function daysInMonth(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

/**
 * The last instant asked for, seen in each zone asked: a request reads one `now` in every buyer's
 * zone (period keys, schedules, caps, bids), so each zone's clock is worked out once per request,
 * not once per buyer and check. ZonedTime is immutable, so sharing one is safe.
 */
let lastInstant = NaN;
const lastInstantZones = new Map<string, ZonedTime>();
const LAST_INSTANT_ZONES_LIMIT = 600;

/** An instant as a zone's wall clock shows it (the subset of luxon's DateTime the service uses). */
export class ZonedTime {
  readonly clock: WallClock;

  private constructor(
    readonly ms: number,
    readonly zone: Zone,
    /** Minutes east of UTC at this instant. */
    readonly offset: number,
  ) {
    this.clock = clockOf(ms, zone, offset);
  }

  static at(ms: number | Date, zone: Zone): ZonedTime {
    const value = typeof ms === 'number' ? ms : ms.getTime();
    if (typeof zone !== 'string') return new ZonedTime(value, zone, offsetAt(zone, value));
    if (value !== lastInstant) {
      lastInstant = value;
      lastInstantZones.clear();
    }
    let zoned = lastInstantZones.get(zone);
    if (!zoned) {
      zoned = new ZonedTime(value, zone, offsetAt(zone, value));
      if (lastInstantZones.size < LAST_INSTANT_ZONES_LIMIT) lastInstantZones.set(zone, zoned);
    }
    return zoned;
  }

  /**
   * The instant a wall clock shows in `zone`, or undefined for an impossible one (month 13,
   * February 30, hour 24, minute 60...). In an overlap the zone's offset at `now` decides.
   */
  static fromWallClock(clock: WallClock, zone: Zone, now: number = Date.now()): ZonedTime | undefined {
    const { year, month, day, hour, minute, second, millisecond } = clock;
    const within = (value: number, max: number) => Number.isInteger(value) && value >= 0 && value <= max;
    const valid =
      Number.isInteger(year) && within(month - 1, 11) && within(day - 1, daysInMonth(year, month) - 1) && within(hour, 23) && within(minute, 59) && within(second, 59) && within(millisecond, 999);
    if (!valid) return undefined;
    const guess = offsetAt(zone, now);
    if (Number.isNaN(guess)) return undefined;
    const [ms, offset] = fixOffset(wallClockAsUtc(clock), guess, zone);
    return new ZonedTime(ms, zone, offset);
  }

  get isValid(): boolean {
    return Number.isFinite(this.ms) && Number.isFinite(this.offset);
  }

  /** ISO weekday: 1 = Monday ... 7 = Sunday. */
  get weekday(): number {
    const day = new Date(wallClockAsUtc(this.clock)).getUTCDay();
    return day === 0 ? 7 : day;
  }

  /** Calendar and time fields set on the wall clock (a day beyond the month's last is cut to it when the day is not set). */
  set(values: Partial<WallClock>): ZonedTime {
    const mixed = { ...this.clock, ...values };
    if (values.day === undefined) mixed.day = Math.min(daysInMonth(mixed.year, mixed.month), mixed.day);
    const [ms, offset] = fixOffset(wallClockAsUtc(mixed), this.offset, this.zone);
    return new ZonedTime(ms, this.zone, offset);
  }

  /** Whole days on the calendar (the same wall clock), then milliseconds on the time line. */
  plus({ days = 0, milliseconds = 0 }: { days?: number; milliseconds?: number }): ZonedTime {
    let [ms, offset] = fixOffset(wallClockAsUtc({ ...this.clock, day: this.clock.day + Math.trunc(days) }), this.offset, this.zone);
    if (milliseconds !== 0) {
      ms += milliseconds;
      offset = offsetAt(this.zone, ms);
    }
    return new ZonedTime(ms, this.zone, offset);
  }

  /** The start of the day, the ISO week (Monday) or the month this instant falls in. */
  startOf(unit: 'day' | 'week' | 'month'): ZonedTime {
    const midnight = { hour: 0, minute: 0, second: 0, millisecond: 0 };
    if (unit === 'month') return this.set({ ...midnight, day: 1 });
    if (unit === 'day') return this.set(midnight);
    const monday = new Date(wallClockAsUtc({ ...this.clock, ...midnight, day: this.clock.day - (this.weekday - 1) }));
    return this.set({ ...midnight, year: monday.getUTCFullYear(), month: monday.getUTCMonth() + 1, day: monday.getUTCDate() });
  }

  /** The last millisecond of the day. */
  endOfDay(): ZonedTime {
    return this.plus({ days: 1 }).startOf('day').plus({ milliseconds: -1 });
  }

  /** ISO 8601 with the offset: `2026-11-21T05:31:00.000-05:00`, `Z` for a zero offset. */
  toIso(): string {
    const local = new Date(wallClockAsUtc(this.clock)).toISOString().slice(0, -1);
    const two = (value: number) => String(value).padStart(2, '0');
    const offset = this.offset;
    return local + (offset === 0 ? 'Z' : `${offset < 0 ? '-' : '+'}${two(Math.trunc(Math.abs(offset) / 60))}:${two(Math.abs(offset) % 60)}`);
  }
}
