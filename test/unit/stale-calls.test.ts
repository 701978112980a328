import { describe, expect, it } from 'vitest';
import { isStale, MAX_TALK_SECONDS, STALE_AFTER_SECONDS, staleBefore, staleCallDuration } from '../../shared/calls/stale-calls.js';

const created = '2026-11-22T10:00:00.000Z';
const after = (seconds: number) => new Date(Date.parse(created) + seconds * 1000);

describe('stale calls', () => {
  it('outlast the longest talk a Dial allows', () => {
    expect(STALE_AFTER_SECONDS).toBeGreaterThan(MAX_TALK_SECONDS);
    expect(staleBefore(after(STALE_AFTER_SECONDS)).toISOString()).toBe(created);
  });

  it('are calls in progress since the maximum or longer', () => {
    const call = { id: 1, created_at: created, in_progress: true };
    expect(isStale(call, after(STALE_AFTER_SECONDS - 1))).toBe(false);
    expect(isStale(call, after(STALE_AFTER_SECONDS))).toBe(true);
    expect(isStale({ ...call, in_progress: false }, after(STALE_AFTER_SECONDS * 2))).toBe(false);
    expect(isStale({ ...call, created_at: 'garbage' }, after(STALE_AFTER_SECONDS * 2))).toBe(false);
    expect(isStale({ ...call, created_at: undefined }, after(STALE_AFTER_SECONDS * 2))).toBe(false);
  });

  it('are booked with their age, at most the maximum', () => {
    const call = { id: 1, created_at: created, in_progress: true };
    expect(staleCallDuration(call, after(STALE_AFTER_SECONDS))).toBe(STALE_AFTER_SECONDS);
    expect(staleCallDuration(call, after(STALE_AFTER_SECONDS * 10))).toBe(STALE_AFTER_SECONDS);
    expect(staleCallDuration(call, after(100))).toBe(100);
    expect(staleCallDuration(call, after(-100))).toBe(0);
    expect(staleCallDuration({ ...call, created_at: null }, after(100))).toBe(0);
  });
});
