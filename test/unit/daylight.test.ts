import { describe, expect, it } from 'vitest';
import { daylight, leadTimeZone } from '../../shared/leads/daylight.js';

describe('daylight window (during_daylight_hours)', () => {
  it('is 08:00 inclusive to 21:00 exclusive, local time', () => {
    expect(daylight(new Date('2027-01-15T13:00:00Z'), 'America/New_York')).toEqual({ inside: true }); // 08:00
    expect(daylight(new Date('2027-01-16T01:59:59Z'), 'America/New_York')).toEqual({ inside: true }); // 20:59:59
    expect(daylight(new Date('2027-01-16T02:00:00Z'), 'America/New_York')).toEqual({ inside: false, next: new Date('2027-01-16T13:00:00Z') }); // 21:00
  });

  it('before 08:00 waits for 08:00 the same day; from 21:00 for the next day, across a daylight-saving change', () => {
    expect(daylight(new Date('2027-01-15T12:59:00Z'), 'America/New_York')).toEqual({ inside: false, next: new Date('2027-01-15T13:00:00Z') });
    // 2027-03-13 21:30 EST; the clocks go forward that night, so 08:00 on the 14th is EDT (12:00 UTC).
    expect(daylight(new Date('2027-03-14T02:30:00Z'), 'America/New_York')).toEqual({ inside: false, next: new Date('2027-03-14T12:00:00Z') });
  });

  it("takes the lead's time_zone token when it names a zone, else the schedule's, else UTC", () => {
    expect(leadTimeZone({ time_zone: 'Asia/Tokyo' }, 'Europe/Paris')).toBe('Asia/Tokyo');
    expect(leadTimeZone({ time_zone: 'Eastern Time (US & Canada)' }, 'UTC')).toBe('America/New_York');
    expect(leadTimeZone({ time_zone: 'Mars/Base' }, 'Europe/Paris')).toBe('Europe/Paris');
    expect(leadTimeZone({ time_zone: 7 }, undefined)).toBe('UTC');
  });
});
