import { ZonedTime } from '../zoned-time.js';

/**
 * When a wait (or a schedule_callback action) ends, from the action's wait fields. Pure.
 *
 * - `seconds`, `minutes`, `hours`: an elapsed duration (`wait_seconds`...): 2 hours are 7,200 s
 *   even across a daylight-saving change.
 * - `days`: calendar days in the wait's zone: a lead waiting 1 day from 09:00 runs at 09:00 the
 *   next day, also on the day the clocks change (23 or 25 hours later).
 * - `until_time`: the next `wait_until_hour`:`wait_until_minute` (on `wait_until_day_of_week`,
 *   or on any day when it is blank) in `wait_until_time_zone` (else the schedule's zone), strictly
 *   after now. A wall time the clocks skip (02:30 on a spring-forward night) runs at the first
 *   valid time after it (luxon moves it forward by the gap).
 */
export const WAIT_TYPES = ['seconds', 'minutes', 'hours', 'days', 'until_time'] as const;
export type WaitType = (typeof WAIT_TYPES)[number];

/** Day names as stored; `wait_until_day_of_week` also accepts 0-6 (0 = Sunday). */
export const DAYS_OF_WEEK = ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday'] as const;
export type DayOfWeek = (typeof DAYS_OF_WEEK)[number];

/** The wait fields of a schedule action. */
export interface WaitFields {
  [field: string]: unknown;
  action_wait_type?: unknown;
  wait_seconds?: unknown;
  wait_minutes?: unknown;
  wait_hours?: unknown;
  wait_days?: unknown;
  wait_until_day_of_week?: unknown;
  wait_until_hour?: unknown;
  wait_until_minute?: unknown;
  wait_until_time_zone?: unknown;
}

const UNIT_FIELD: Record<Exclude<WaitType, 'until_time'>, keyof WaitFields> = {
  seconds: 'wait_seconds',
  minutes: 'wait_minutes',
  hours: 'wait_hours',
  days: 'wait_days',
};

const UNIT_MS = { seconds: 1000, minutes: 60_000, hours: 3_600_000 } as const;

function count(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0 ? value : undefined;
}

const UNTIL_FIELDS = ['wait_until_hour', 'wait_until_minute', 'wait_until_day_of_week'] as const;

function given(value: unknown): boolean {
  return value !== null && value !== undefined && value !== '';
}

/** The wait types the fields describe: each unit whose field is set, and until_time when a wall-time field is. */
function describedWaitTypes(fields: WaitFields): WaitType[] {
  const types: WaitType[] = (Object.keys(UNIT_FIELD) as Array<keyof typeof UNIT_FIELD>).filter((type) => given(fields[UNIT_FIELD[type]]));
  if (UNTIL_FIELDS.some((field) => given(fields[field]))) types.push('until_time');
  return types;
}

/**
 * The wait type an action without `action_wait_type` means: the one kind of wait field it
 * sets (`wait_hours: 2` is a wait of hours, `wait_until_hour: 9` one until 09:00); undefined
 * when it sets none, or fields of several kinds (truly ambiguous).
 */
export function inferredWaitType(fields: WaitFields): WaitType | undefined {
  const types = describedWaitTypes(fields);
  return types.length === 1 ? types[0] : undefined;
}

/** What is missing for the wait to be computed: field name -> message (empty when complete). */
export function waitFieldErrors(fields: WaitFields): Record<string, string[]> {
  const type = (fields.action_wait_type as WaitType | null | undefined) || inferredWaitType(fields);
  if (!type) {
    const described = describedWaitTypes(fields);
    return {
      action_wait_type: [described.length > 1 ? `can't be inferred: the wait fields describe ${described.join(' and ')}; give action_wait_type` : "can't be blank when no wait field (wait_seconds, wait_minutes, wait_hours, wait_days, wait_until_hour) is given"],
    };
  }
  if (type === 'until_time') return count(fields.wait_until_hour) === undefined ? { wait_until_hour: ["can't be blank when action_wait_type is until_time"] } : {};
  const field = UNIT_FIELD[type];
  return count(fields[field]) === undefined ? { [field]: [`can't be blank when action_wait_type is ${type}`] } : {};
}

/** When the wait that starts at `now` ends; undefined when the fields do not describe a wait. */
export function waitEnd(fields: WaitFields, now: Date, scheduleZone = 'UTC'): Date | undefined {
  const type = (fields.action_wait_type as WaitType | null | undefined) || inferredWaitType(fields);
  const zone = typeof fields.wait_until_time_zone === 'string' && fields.wait_until_time_zone ? fields.wait_until_time_zone : scheduleZone;
  switch (type) {
    case 'seconds':
    case 'minutes':
    case 'hours': {
      const amount = count(fields[UNIT_FIELD[type]]);
      return amount === undefined ? undefined : new Date(now.getTime() + amount * UNIT_MS[type]);
    }
    case 'days': {
      const amount = count(fields.wait_days);
      return amount === undefined ? undefined : new Date(ZonedTime.at(now, zone).plus({ days: amount }).ms);
    }
    case 'until_time':
      return nextWallTime(now, zone, fields.wait_until_day_of_week as DayOfWeek | null | undefined, count(fields.wait_until_hour), count(fields.wait_until_minute) ?? 0);
    default:
      return undefined;
  }
}

/** The next `hour`:`minute` in `zone` (on `day`, if given) strictly after `now`. */
export function nextWallTime(now: Date, zone: string, day: DayOfWeek | null | undefined, hour: number | undefined, minute: number): Date | undefined {
  if (hour === undefined || hour > 23 || minute > 59) return undefined;
  const local = ZonedTime.at(now, zone);
  if (!local.isValid) return undefined;
  // ZonedTime's (ISO) weekday: 1 = Monday .. 7 = Sunday; ours: 0 = Sunday .. 6 = Saturday.
  const target = day ? DAYS_OF_WEEK.indexOf(day) : -1;
  const step = target === -1 ? 1 : 7;
  const ahead = target === -1 ? 0 : (target - (local.weekday % 7) + 7) % 7;
  let candidate = local.plus({ days: ahead }).set({ hour, minute, second: 0, millisecond: 0 });
  if (candidate.ms <= now.getTime()) candidate = local.plus({ days: ahead + step }).set({ hour, minute, second: 0, millisecond: 0 });
  return new Date(candidate.ms);
}
