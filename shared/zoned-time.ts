/**
 * Instants seen on a time zone's wall clock, and wall-clock times turned back into instants, with
 * the runtime's Intl alone. This is the part of luxon (3.7) the service used, written out because
 * luxon is 70 KB of every function's bundle (docs/benchmarks.md, "Lambda bundles"); the
 * arithmetic is luxon's, step for step, so every answer is the one luxon gave
 * (test/unit/zoned-time.test.ts compares them on random instants and zones):
 * - a zone's offset at an instant is read from Intl.DateTimeFormat's fields for it (IANAZone.offset);
 * - a wall-clock time becomes an instant by luxon's `fixOffset`: try the offset guessed from a
 *   nearby instant, then the offset at that result, and in a gap take the later wall clock (the
 *   time moves forward by the gap) - so an ambiguous time (an overlap) resolves by the guess, as in
 *   luxon: the offset the clock had at the instant we start from.
 * Pure.
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
 * which Node 20's refused, and a zone name never starts with a sign.
 */
export function isTimeZone(name: string): boolean {
  if (!name || /^[+\-\u2212]/.test(name)) return false;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: name }).format();
    return true;
  } catch {
    return false;
  }
}

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterOf(zone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(zone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-US', {
      hourCycle: 'h23',
      timeZone: zone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      era: 'short',
    });
    formatters.set(zone, formatter);
  }
  return formatter;
}

/** Milliseconds since the epoch of a wall clock read as UTC (luxon's objToLocalTS; years 0-99 stay as given). */
export function wallClockAsUtc(clock: WallClock): number {
  let ms = Date.UTC(clock.year, clock.month - 1, clock.day, clock.hour, clock.minute, clock.second, clock.millisecond);
  if (clock.year < 100 && clock.year >= 0) {
    const date = new Date(ms);
    date.setUTCFullYear(clock.year, clock.month - 1, clock.day);
    ms = date.getTime();
  }
  return ms;
}

/** The zone's offset east of UTC, in minutes, at an instant; NaN for an unknown zone. */
export function offsetAt(zone: Zone, ms: number): number {
  if (typeof zone !== 'string') return zone.fixedOffsetMinutes;
  if (Number.isNaN(ms)) return NaN;
  let parts: Intl.DateTimeFormatPart[];
  try {
    parts = formatterOf(zone).formatToParts(new Date(ms));
  } catch {
    return NaN;
  }
  const field: Record<string, string> = {};
  for (const part of parts) field[part.type] = part.value;
  const year = Number(field.year);
  const hour = Number(field.hour);
  const asUtc = wallClockAsUtc({
    year: field.era === 'BC' || field.era === 'B' ? 1 - year : year,
    month: Number(field.month),
    day: Number(field.day),
    hour: hour === 24 ? 0 : hour,
    minute: Number(field.minute),
    second: Number(field.second),
    millisecond: 0,
  });
  const over = ms % 1000;
  const whole = ms - (over >= 0 ? over : 1000 + over);
  return (asUtc - whole) / 60_000;
}

/** The wall clock at `ms` under `offset` minutes (luxon's tsToObj). */
function clockOf(ms: number, offset: number): WallClock {
  const date = new Date(ms + offset * 60_000);
  return {
    year: date.getUTCFullYear(),
    month: date.getUTCMonth() + 1,
    day: date.getUTCDate(),
    hour: date.getUTCHours(),
    minute: date.getUTCMinutes(),
    second: date.getUTCSeconds(),
    millisecond: date.getUTCMilliseconds(),
  };
}

/** luxon's fixOffset: the instant of a wall clock (as UTC ms) in `zone`, starting from the offset guess `offset`. */
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
    this.clock = clockOf(ms, offset);
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
   * February 30, hour 24, minute 60...). The offset guess is the zone's offset at `now`, as luxon's
   * DateTime.fromObject guesses.
   */
  static fromWallClock(clock: WallClock, zone: Zone, now: number = Date.now()): ZonedTime | undefined {
    const { year, month, day, hour, minute, second, millisecond } = clock;
    const valid =
      Number.isInteger(year) &&
      month >= 1 &&
      month <= 12 &&
      day >= 1 &&
      day <= daysInMonth(year, month) &&
      hour >= 0 &&
      hour <= 23 &&
      minute >= 0 &&
      minute <= 59 &&
      second >= 0 &&
      second <= 59 &&
      millisecond >= 0 &&
      millisecond <= 999;
    if (!valid) return undefined;
    const guess = offsetAt(zone, now);
    if (Number.isNaN(guess)) return undefined;
    const [ms, offset] = fixOffset(wallClockAsUtc(clock), guess, zone);
    return new ZonedTime(ms, zone, offset);
  }

  get isValid(): boolean {
    return Number.isFinite(this.ms) && Number.isFinite(this.offset);
  }

  /** ISO weekday: 1 = Monday ... 7 = Sunday (luxon's `weekday`). */
  get weekday(): number {
    const day = new Date(Date.UTC(this.clock.year, this.clock.month - 1, this.clock.day)).getUTCDay();
    return day === 0 ? 7 : day;
  }

  /** luxon's `set` for calendar and time fields (not week fields). */
  set(values: Partial<WallClock>): ZonedTime {
    const mixed = { ...this.clock, ...values };
    if (values.day === undefined) mixed.day = Math.min(daysInMonth(mixed.year, mixed.month), mixed.day);
    const [ms, offset] = fixOffset(wallClockAsUtc(mixed), this.offset, this.zone);
    return new ZonedTime(ms, this.zone, offset);
  }

  /** luxon's `plus` for whole days (on the calendar) and milliseconds (on the time line). */
  plus({ days = 0, milliseconds = 0 }: { days?: number; milliseconds?: number }): ZonedTime {
    const clock = { ...this.clock, day: this.clock.day + Math.trunc(days) };
    let [ms, offset] = fixOffset(wallClockAsUtc(clock), this.offset, this.zone);
    if (milliseconds !== 0) {
      ms += milliseconds;
      offset = offsetAt(this.zone, ms);
    }
    return new ZonedTime(ms, this.zone, offset);
  }

  /** luxon's `startOf`: the day, the ISO week (Monday) or the month this instant falls in. */
  startOf(unit: 'day' | 'week' | 'month'): ZonedTime {
    const midnight = { hour: 0, minute: 0, second: 0, millisecond: 0 };
    if (unit === 'month') return this.set({ ...midnight, day: 1 });
    if (unit === 'day') return this.set(midnight);
    const monday = new Date(Date.UTC(this.clock.year, this.clock.month - 1, this.clock.day - (this.weekday - 1)));
    return this.set({ ...midnight, year: monday.getUTCFullYear(), month: monday.getUTCMonth() + 1, day: monday.getUTCDate() });
  }

  /** luxon's `endOf('day')`: the last millisecond of the day. */
  endOfDay(): ZonedTime {
    return this.plus({ days: 1 }).startOf('day').plus({ milliseconds: -1 });
  }

  /** luxon's toISO(): `2026-11-21T05:31:00.000-05:00`, `Z` for a zero offset. */
  toIso(): string {
    const { year, month, day, hour, minute, second, millisecond } = this.clock;
    const two = (value: number) => String(value).padStart(2, '0');
    const yearText = year > 9999 ? `+${String(year).padStart(6, '0')}` : year < 0 ? `-${String(-year).padStart(6, '0')}` : String(year).padStart(4, '0');
    const offset = this.offset;
    const zoneText = offset === 0 ? 'Z' : `${offset < 0 ? '-' : '+'}${two(Math.trunc(Math.abs(offset) / 60))}:${two(Math.abs(offset) % 60)}`;
    return `${yearText}-${two(month)}-${two(day)}T${two(hour)}:${two(minute)}:${two(second)}.${String(millisecond).padStart(3, '0')}${zoneText}`;
  }
}
