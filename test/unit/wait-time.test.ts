import { describe, expect, it } from 'vitest';
import { waitEnd, waitFieldErrors } from '../../shared/leads/wait-time.js';

const NY = 'America/New_York';

describe('waitEnd', () => {
  it('waits seconds, minutes and hours as elapsed time, also across a daylight-saving change', () => {
    const now = new Date('2025-03-09T06:30:00Z'); // 01:30 EST, half an hour before clocks go forward
    expect(waitEnd({ action_wait_type: 'seconds', wait_seconds: 90 }, now, NY)).toEqual(new Date('2025-03-09T06:31:30Z'));
    expect(waitEnd({ action_wait_type: 'minutes', wait_minutes: 45 }, now, NY)).toEqual(new Date('2025-03-09T07:15:00Z'));
    expect(waitEnd({ action_wait_type: 'hours', wait_hours: 2 }, now, NY)).toEqual(new Date('2025-03-09T08:30:00Z'));
  });

  it('waits days as calendar days in the zone: 09:00 stays 09:00 over the change (23 hours)', () => {
    const now = new Date('2025-03-08T14:00:00Z'); // Saturday 09:00 EST
    expect(waitEnd({ action_wait_type: 'days', wait_days: 1 }, now, NY)).toEqual(new Date('2025-03-09T13:00:00Z')); // Sunday 09:00 EDT
  });

  it('waits until a day of week, hour and minute in wait_until_time_zone, across spring-forward and fall-back', () => {
    const friday = new Date('2025-03-07T20:00:00Z'); // Friday 15:00 EST
    const spring = { action_wait_type: 'until_time', wait_until_day_of_week: 'monday', wait_until_hour: 9, wait_until_minute: 15, wait_until_time_zone: NY };
    expect(waitEnd(spring, friday, 'UTC')).toEqual(new Date('2025-03-10T13:15:00Z')); // Monday 09:15 EDT (-4)
    const saturday = new Date('2025-11-01T16:00:00Z'); // Saturday 12:00 EDT
    expect(waitEnd({ ...spring, wait_until_day_of_week: 'sunday', wait_until_hour: 9, wait_until_minute: 0 }, saturday, 'UTC')).toEqual(new Date('2025-11-02T14:00:00Z')); // Sunday 09:00 EST (-5)
  });

  it('takes the schedule’s zone when the action has none, and the next day when the time has passed today', () => {
    const now = new Date('2030-05-01T12:00:00Z');
    expect(waitEnd({ action_wait_type: 'until_time', wait_until_hour: 8 }, now, 'Europe/Berlin')).toEqual(new Date('2030-05-02T06:00:00Z'));
    expect(waitEnd({ action_wait_type: 'until_time', wait_until_hour: 15, wait_until_minute: 30 }, now, 'Europe/Berlin')).toEqual(new Date('2030-05-01T13:30:00Z'));
  });

  it('is strictly after now: the same day and time a week later', () => {
    const now = new Date('2030-05-01T13:30:00Z'); // Wednesday 15:30 Berlin
    expect(waitEnd({ action_wait_type: 'until_time', wait_until_day_of_week: 'wednesday', wait_until_hour: 15, wait_until_minute: 30 }, now, 'Europe/Berlin')).toEqual(new Date('2030-05-08T13:30:00Z'));
  });

  it('moves a wall time the clocks skip to the first valid time after it', () => {
    const now = new Date('2025-03-09T05:00:00Z'); // 00:00 EST on the spring-forward night
    expect(waitEnd({ action_wait_type: 'until_time', wait_until_hour: 2, wait_until_minute: 30 }, now, NY)).toEqual(new Date('2025-03-09T07:30:00Z')); // 03:30 EDT
  });

  it('describes no wait without its amount', () => {
    expect(waitEnd({ action_wait_type: 'hours' }, new Date(), 'UTC')).toBeUndefined();
    expect(waitEnd({}, new Date(), 'UTC')).toBeUndefined();
  });
});

describe('waitFieldErrors', () => {
  it('names the field a wait type needs', () => {
    expect(waitFieldErrors({})).toEqual({ action_wait_type: ["can't be blank when no wait field (wait_seconds, wait_minutes, wait_hours, wait_days, wait_until_hour) is given"] });
    expect(waitFieldErrors({ action_wait_type: 'hours' })).toEqual({ wait_hours: ["can't be blank when action_wait_type is hours"] });
    expect(waitFieldErrors({ action_wait_type: 'until_time' })).toEqual({ wait_until_hour: ["can't be blank when action_wait_type is until_time"] });
    expect(waitFieldErrors({ action_wait_type: 'days', wait_days: 0 })).toEqual({});
  });
});
