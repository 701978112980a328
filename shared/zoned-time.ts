/**
 * Instants seen on a time zone's wall clock, and wall-clock times turned back into instants: a thin
 * wrapper over luxon's DateTime (the maintained library keeps the DST arithmetic, not us). It keeps
 * the small interface the service reads (caps' periods, business hours, schedules, report buckets),
 * and one thing luxon has no notion of: a request reads one `now` in every buyer's zone, so each
 * zone's clock is built once per instant, not once per buyer and check.
 */
import { DateTime, FixedOffsetZone, IANAZone, type Zone as LuxonZone } from 'luxon';

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

/** Is this a zone name the runtime's Intl knows? */
export function isTimeZone(name: string): boolean {
  return name !== '' && IANAZone.isValidZone(name);
}

function luxonZone(zone: Zone): LuxonZone {
  return typeof zone === 'string' ? IANAZone.create(zone) : FixedOffsetZone.instance(zone.fixedOffsetMinutes);
}

/** The zone's offset east of UTC, in minutes, at an instant; NaN for an unknown zone. */
export function offsetAt(zone: Zone, ms: number): number {
  if (typeof zone !== 'string') return zone.fixedOffsetMinutes;
  if (Number.isNaN(ms) || !isTimeZone(zone)) return NaN;
  return IANAZone.create(zone).offset(ms);
}

function daysInMonth(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

/** luxon rolls impossible values over (February 30 is March 2); the service refuses them instead. */
function isPossible({ year, month, day, hour, minute, second, millisecond }: WallClock): boolean {
  return (
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
    millisecond <= 999
  );
}

let lastInstant = NaN;
const lastInstantZones = new Map<string, ZonedTime>();
const LAST_INSTANT_ZONES_LIMIT = 600;

/** An instant as a zone's wall clock shows it. Immutable, so sharing one is safe. */
export class ZonedTime {
  readonly clock: WallClock;

  private constructor(
    private readonly time: DateTime,
    readonly zone: Zone,
  ) {
    this.clock = { year: time.year, month: time.month, day: time.day, hour: time.hour, minute: time.minute, second: time.second, millisecond: time.millisecond };
  }

  /** Milliseconds since the epoch. */
  get ms(): number {
    return this.time.toMillis();
  }

  /** Minutes east of UTC at this instant. */
  get offset(): number {
    return this.time.offset;
  }

  static at(ms: number | Date, zone: Zone): ZonedTime {
    const value = typeof ms === 'number' ? ms : ms.getTime();
    const make = () => new ZonedTime(DateTime.fromMillis(value, { zone: luxonZone(zone) }), zone);
    if (typeof zone !== 'string') return make();
    if (value !== lastInstant) {
      lastInstant = value;
      lastInstantZones.clear();
    }
    let zoned = lastInstantZones.get(zone);
    if (!zoned) {
      zoned = make();
      if (lastInstantZones.size < LAST_INSTANT_ZONES_LIMIT) lastInstantZones.set(zone, zoned);
    }
    return zoned;
  }

  /**
   * The instant a wall clock shows in `zone`, or undefined for an impossible one (month 13,
   * February 30, hour 24, minute 60...) or an unknown zone. A time in a gap moves forward by the
   * gap; a time that happens twice resolves by the zone's offset at `now` (luxon's fromObject,
   * which guesses from the time now: setting the clock on `now` makes the same guess).
   */
  static fromWallClock(clock: WallClock, zone: Zone, now: number = Date.now()): ZonedTime | undefined {
    if (!isPossible(clock)) return undefined;
    const start = DateTime.fromMillis(now, { zone: luxonZone(zone) });
    if (!start.isValid) return undefined;
    return new ZonedTime(start.set(clock), zone);
  }

  get isValid(): boolean {
    return this.time.isValid;
  }

  /** ISO weekday: 1 = Monday ... 7 = Sunday. */
  get weekday(): number {
    return this.time.weekday;
  }

  /** Calendar and time fields set on the wall clock (a day past the new month's end is clamped). */
  set(values: Partial<WallClock>): ZonedTime {
    return new ZonedTime(this.time.set(values), this.zone);
  }

  /** Whole days on the calendar, then milliseconds on the time line. */
  plus({ days = 0, milliseconds = 0 }: { days?: number; milliseconds?: number }): ZonedTime {
    return new ZonedTime(this.time.plus({ days: Math.trunc(days), milliseconds }), this.zone);
  }

  /** The start of the day, the ISO week (Monday) or the month this instant falls in. */
  startOf(unit: 'day' | 'week' | 'month'): ZonedTime {
    return new ZonedTime(this.time.startOf(unit), this.zone);
  }

  /** The last millisecond of the day. */
  endOfDay(): ZonedTime {
    return new ZonedTime(this.time.endOf('day'), this.zone);
  }

  /** ISO 8601 with milliseconds: `2026-11-21T05:31:00.000-05:00`, `Z` for a zero offset. */
  toIso(): string {
    const out = this.time.toISO({ suppressMilliseconds: false, includeOffset: true }) ?? '';
    return this.offset === 0 && out.endsWith('+00:00') ? `${out.slice(0, -6)}Z` : out;
  }
}
