import { DateTime } from 'luxon';
import { beforeAll, describe, expect, it } from 'vitest';
import { midDayTomorrow, pinClock, restoreClock } from '../fixtures/clock.js';
import { createTestCompany, type TestCompany } from '../fixtures/company.js';
import { expect422 } from '../fixtures/envelope.js';
import { useGateway } from '../fixtures/gateway.js';
import { asCompany, submitted } from '../fixtures/leads.js';
import { createThrough } from '../fixtures/records.js';

const gateway = useGateway();

/**
 * Three leads at pinned times: day D 12:30 and 13:30 UTC, and D+1 02:30 UTC (still the evening
 * of D in New York). Buckets are computed here with luxon, so the test holds whatever weekday or
 * month boundary D falls on.
 */
const d = DateTime.fromJSDate(midDayTomorrow(), { zone: 'UTC' });
const times = [d, d.plus({ hours: 1 }), d.plus({ hours: 14 })];
const from = d.startOf('day').toFormat('yyyy-MM-dd HH:mm:ss ZZZ');
const to = d.plus({ days: 1 }).endOf('day').toFormat('yyyy-MM-dd HH:mm:ss ZZZ');
const iso = (time: DateTime) => time.toISO({ includeOffset: true })!.replace(/Z$/, '+00:00');

let company: TestCompany;
let offer: Record<string, any>;

beforeAll(async () => {
  company = await createTestCompany('lead-stats');
  offer = await createThrough(gateway, company, '/api/v1/offers', { name: 'Stats offer' });
  try {
    for (const [i, at] of times.entries()) {
      pinClock(at.toJSDate());
      await submitted(gateway, { query: { lead_token: offer.lead_token, caller_id: `+1415557${String(2000 + i)}` } });
    }
  } finally {
    restoreClock();
  }
});

const stats = (query: Record<string, string>) => asCompany(gateway, company, 'GET', `/api/v1/leads/stats?${new URLSearchParams({ created_at_from: from, created_at_to: to, ...query })}`);

describe('GET /api/v1/leads/stats', () => {
  it.each([
    { interval: 'hour', time_zone: 'UTC', buckets: times.map((time) => [iso(time.startOf('hour')), 1]) },
    { interval: 'day', time_zone: 'UTC', buckets: [[iso(d.startOf('day')), 2], [iso(d.plus({ days: 1 }).startOf('day')), 1]] },
    { interval: 'day', time_zone: 'America/New_York', buckets: [[iso(d.setZone('America/New_York').startOf('day')), 3]] },
    {
      interval: 'week',
      time_zone: 'UTC',
      // Monday-based: D+1 is in another week when it is a Monday.
      buckets: d.plus({ days: 1 }).weekday === 1 ? [[iso(d.startOf('week')), 2], [iso(d.plus({ days: 1 }).startOf('week')), 1]] : [[iso(d.startOf('week')), 3]],
    },
  ])('buckets leads by $interval in $time_zone', async ({ interval, time_zone, buckets }) => {
    const reply = await stats({ interval, time_zone, category: 'offer' });
    expect(reply.status, reply.text).toBe(200);
    expect(reply.body.stats.map((row: any) => [row.interval_start, row.leads])).toEqual(buckets);
    expect(reply.body.stats[0]).toMatchObject({ category: 'offer', value: offer.id, name: 'Stats offer', active: buckets[0]![1], converted: 0 });
    expect(reply.body.metadata).toMatchObject({ category: 'offer', interval, total_count: buckets.length });
  });

  it('defaults to days by offer, answers bare rows with root=false, and refuses an unknown interval', async () => {
    const reply = await stats({ category: 'status', root: 'false' });
    expect(reply.status, reply.text).toBe(200);
    expect(reply.body).toEqual([
      expect.objectContaining({ interval_start: iso(d.startOf('day')), category: 'status', value: 'active', name: null, leads: 2 }),
      expect.objectContaining({ interval_start: iso(d.plus({ days: 1 }).startOf('day')), value: 'active', leads: 1 }),
    ]);
    // Only intervals with leads: an empty range has no rows.
    expect((await asCompany(gateway, company, 'GET', '/api/v1/leads/stats?created_at_from=2020-01-01&created_at_to=2020-01-02')).body.stats).toEqual([]);
    expect422(await stats({ interval: 'year' }), { interval: ['is not included in the list (hour, day, week, month)'] });
  });
});
