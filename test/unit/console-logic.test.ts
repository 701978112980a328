import { describe, expect, it } from 'vitest';
import { capBars, dayBounds, deliveryOutcome, errorMessages, exclusionReasons, formatDuration, leadProgress, liveState, parseHash, queryString, secondsSince, statsSeries } from '../../shared/console/logic.js';

/** The operator console's pure logic (shared/console/logic.ts): what the views show from the API's answers. */
describe('the console logic', () => {
  it('words the API errors, base ones as they are', () => {
    expect(errorMessages({ base: ['Missing or invalid credentials'] })).toEqual(['Missing or invalid credentials']);
    expect(errorMessages({ per_page: ['is not an integer', 'must be at least 1'] })).toEqual(['per_page is not an integer', 'per_page must be at least 1']);
    expect(errorMessages({}, 502)).toEqual(['The service answered 502.']);
    expect(errorMessages(undefined)).toEqual(['The service could not be reached.']);
  });

  it('routes by hash, unknown views to Live calls', () => {
    expect(parseHash('#/calls/123')).toEqual({ view: 'calls', id: '123' });
    expect(parseHash('#/buyers')).toEqual({ view: 'buyers' });
    expect(parseHash('#/nope')).toEqual({ view: 'live' });
    expect(parseHash('')).toEqual({ view: 'live' });
  });

  it('builds query strings without blank values', () => {
    expect(queryString({ offer_id: '3', status: '', cursor: undefined, per_page: 25, converted: false })).toBe('?offer_id=3&per_page=25&converted=false');
    expect(queryString({ a: '' })).toBe('');
    expect(dayBounds('2026-11-01', '')).toEqual({ created_at_from: '2026-11-01 00:00:00' });
    expect(dayBounds('', '2026-11-02')).toEqual({ created_at_to: '2026-11-02 23:59:59' });
    // The days are the zone's: the zone goes with them (and alone, for "today" without dates).
    expect(queryString(dayBounds('2026-11-01', '2026-11-02', 'America/Chicago'))).toBe('?created_at_from=2026-11-01+00%3A00%3A00&created_at_to=2026-11-02+23%3A59%3A59&time_zone=America%2FChicago');
    expect(dayBounds('', '', 'Europe/Paris')).toEqual({ time_zone: 'Europe/Paris' });
  });

  it('formats durations and never counts backwards', () => {
    expect(formatDuration(62)).toBe('1:02');
    expect(formatDuration(3725)).toBe('1:02:05');
    expect(formatDuration(-5)).toBe('0:00');
    expect(secondsSince('2026-11-28T12:00:00.000+00:00', Date.parse('2026-11-28T12:01:30Z'))).toBe(90);
    expect(secondsSince('2026-11-28T12:00:00.000+00:00', Date.parse('2026-11-28T11:00:00Z'))).toBe(0);
    expect(secondsSince('garbage', 0)).toBe(0);
  });

  it('says whether a live call rings a buyer, is connected or is still being routed', () => {
    expect(liveState({ status: 'ringing', buyer: 'B1' })).toBe('Ringing');
    expect(liveState({ status: 'ringing', buyer: null })).toBe('Routing');
    expect(liveState({ status: 'in_progress', buyer: 'B1' })).toBe('Connected');
    expect(liveState({ status: 'ivr' })).toBe('ivr');
  });

  it('draws a bar for each cap with a limit, full at or over it, concurrency first', () => {
    const bars = capBars({ concurrency_cap_used: 1, concurrency_cap_limit: 4, attempt_daily_used: 7, attempt_daily_limit: 5, revenue_monthly_used: 50, revenue_monthly_limit: 200, connection_hourly_used: 3, connection_hourly_limit: null, attempt_total_limit: 0 });
    expect(bars.map((bar) => [bar.key, bar.used, bar.limit, bar.fraction, bar.full])).toEqual([
      ['concurrency', 1, 4, 0.25, false],
      ['attempt_daily', 7, 5, 1, true],
      ['revenue_monthly', 50, 200, 0.25, false],
    ]);
    expect(bars[1]!.label).toBe('Attempts per day');
    expect(capBars({})).toEqual([]);
  });

  it("reads why recent pings left a buyer out, newest first", () => {
    const logs = [
      { created_at: '2026-11-28T12:00:02.000+00:00', excluded_buyers: [{ id: 1, reason: 'attempt_daily_limit' }, { id: 2, reason: 'paused' }] },
      { created_at: '2026-11-28T12:00:01.000+00:00', excluded_buyers: [{ buyer_id: 1, reason: 'token_filter' }] },
      { created_at: '2026-11-28T12:00:00.000+00:00', excluded_buyers: null },
    ];
    expect(exclusionReasons(logs, 1)).toEqual([
      { at: '2026-11-28 12:00:02', reason: 'attempt_daily_limit' },
      { at: '2026-11-28 12:00:01', reason: 'token_filter' },
    ]);
    expect(exclusionReasons(logs, 1, 1)).toHaveLength(1);
    expect(exclusionReasons(logs, 3)).toEqual([]);
  });

  it('sums stats rows per interval and fills a range with empty intervals', () => {
    const rows = [
      { interval_start: '2026-11-28T13:00:00.000+00:00', calls: 2, revenue: 10 },
      { interval_start: '2026-11-28T11:00:00.000+00:00', calls: 1, revenue: 5 },
      { interval_start: '2026-11-28T13:00:00.000+00:00', calls: 3, revenue: 1.5 },
    ];
    const at = (hour: number) => Date.parse(`2026-11-28T${String(hour).padStart(2, '0')}:00:00Z`) / 1000;
    expect(statsSeries(rows, ['calls', 'revenue'])).toEqual({ x: [at(11), at(13)], series: { calls: [1, 5], revenue: [5, 11.5] } });
    const filled = statsSeries(rows, ['calls'], { fromMs: at(10) * 1000, toMs: at(14) * 1000, stepMs: 3_600_000 });
    expect(filled).toEqual({ x: [at(10), at(11), at(12), at(13), at(14)], series: { calls: [0, 1, 0, 5, 0] } });
  });

  it('tells delivered, failed and dead-lettered deliveries apart', () => {
    expect(deliveryOutcome({ success: true, attempt: 1, max_attempts: 8 })).toBe('delivered');
    expect(deliveryOutcome({ success: false, attempt: 3, max_attempts: 8 })).toBe('failed');
    expect(deliveryOutcome({ success: false, attempt: 8, max_attempts: 8 })).toBe('dead-lettered');
    expect(deliveryOutcome({ success: false, attempt: 1, max_attempts: null })).toBe('failed');
  });

  it("marks a schedule lead's actions done, next or to come from its position, in the engine's order", () => {
    const actions = [
      { id: 4, name: 'Text', action_type: 'sms', owner_relation: 'actions', sortable_order: 2 },
      { id: 2, name: 'Dial', action_type: 'dial', owner_relation: 'actions', sortable_order: 1 },
      { id: 3, name: 'Wait', action_type: 'wait', owner_relation: 'actions', sortable_order: null },
      { id: 9, name: 'Goodbye', action_type: 'email', owner_relation: 'end_of_schedule_actions' },
    ];
    const states = (lead: Record<string, unknown>) => leadProgress(lead, actions).map((action) => `${action.name}:${action.state}`);
    expect(states({ phase: 'actions', current_action_id: 4, action_index: 1 })).toEqual(['Dial:done', 'Text:next', 'Wait:to come', 'Goodbye:to come']);
    expect(states({ phase: 'actions', current_action_id: null, action_index: 0 })).toEqual(['Dial:next', 'Text:to come', 'Wait:to come', 'Goodbye:to come']);
    expect(states({ phase: 'end_of_schedule_actions', current_action_id: 9, action_index: 0 })).toEqual(['Dial:done', 'Text:done', 'Wait:done', 'Goodbye:next']);
    expect(states({ phase: null, status: 'completed' })).toEqual(['Dial:not run', 'Text:not run', 'Wait:not run', 'Goodbye:not run']);
  });
});
