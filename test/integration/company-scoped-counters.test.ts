import { randomInt } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { takeRateLimits, type RateCheck } from '../../shared/routing/rate-limits.js';
import { findReservation, reserveNumber, type NumberReservation } from '../../shared/routing/reservations.js';

// Every key starts with the company id (shared/db/keys.ts): ids of webhooks, buyers and offers
// are per-company sequences, so two companies routinely have a webhook 1 and share a carrier
// number format. These tests use two companies with the same ids and show nothing is shared.
const companyPair = () => {
  const first = 30_000_000 + randomInt(1_000_000);
  return [first, first + 1] as const;
};
const now = new Date('2026-11-21T10:15:30Z');

describe('rate-limit counters are per company', () => {
  const perMinute = (limit: number): RateCheck => ({ scope: 'webhook#1', window: 'minute', limit, field: 'rate_limit_per_minute' });

  it('lets each of two companies with a webhook of the same id use its own limit', async () => {
    const [a, b] = companyPair();
    expect(await takeRateLimits(a, [perMinute(2)], now)).toBeUndefined();
    expect(await takeRateLimits(a, [perMinute(2)], now)).toBeUndefined();
    expect(await takeRateLimits(a, [perMinute(2)], now)).toMatchObject({ field: 'rate_limit_per_minute' });
    // Company b has used nothing: its webhook 1 gets its full two requests, then is refused too.
    expect(await takeRateLimits(b, [perMinute(2)], now)).toBeUndefined();
    expect(await takeRateLimits(b, [perMinute(2)], now)).toBeUndefined();
    expect(await takeRateLimits(b, [perMinute(2)], now)).toMatchObject({ field: 'rate_limit_per_minute' });
  });

  it('does not count one company\'s refused or accepted requests against the other in any window', async () => {
    const [a, b] = companyPair();
    const checks: RateCheck[] = [
      { scope: 'webhook#1', window: 'hour', limit: 1, field: 'rate_limit_per_hour' },
      { scope: 'webhook#1#ts#7', window: 'day', limit: 1, field: 'traffic_source_rate_limit_per_day' },
    ];
    expect(await takeRateLimits(a, checks, now)).toBeUndefined();
    expect(await takeRateLimits(a, checks, now)).toMatchObject({ field: 'rate_limit_per_hour' });
    expect(await takeRateLimits(b, checks, now)).toBeUndefined();
  });
});

describe('number reservations are per company', () => {
  const NUMBER = '+13125550142';
  const CALLER = '+14155552671';
  const reservation = (buyerIds: number[], pingId: string): NumberReservation => ({
    number: NUMBER,
    caller: CALLER,
    buyer_ids: buyerIds,
    tokens: { ping: pingId },
    ping_id: pingId,
    inbound_webhook_id: 1,
    offer_id: 1,
    traffic_source_id: null,
    reserved_until: new Date(now.getTime() + 5 * 60_000).toISOString(),
  });

  it('never routes another company\'s caller by one company\'s reservation of the same number and caller', async () => {
    const [a, b] = companyPair();
    await reserveNumber(a, reservation([3], 'ping-a'));
    expect(await findReservation(a, NUMBER, CALLER, now)).toMatchObject({ buyer_ids: [3], ping_id: 'ping-a' });
    expect(await findReservation(b, NUMBER, CALLER, now)).toBeUndefined();
  });

  it('keeps both reservations when two companies reserve the same number for the same caller', async () => {
    const [a, b] = companyPair();
    await reserveNumber(a, reservation([3], 'ping-a'));
    await reserveNumber(b, reservation([9], 'ping-b'));
    expect(await findReservation(a, NUMBER, CALLER, now)).toMatchObject({ buyer_ids: [3], ping_id: 'ping-a' });
    expect(await findReservation(b, NUMBER, CALLER, now)).toMatchObject({ buyer_ids: [9], ping_id: 'ping-b' });
  });
});
