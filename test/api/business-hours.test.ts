import { randomUUID } from 'node:crypto';
import { DateTime } from 'luxon';
import { afterEach, describe, expect, it } from 'vitest';
import { simulateCall } from '../../shared/local/call-simulator.js';
import { midDayTomorrow, nextOffsetChange, pinClock, restoreClock } from '../fixtures/clock.js';
import { createTestCompany, type TestCompany } from '../fixtures/company.js';
import { call, useGateway } from '../fixtures/gateway.js';
import { createThrough } from '../fixtures/records.js';
import { VOICE_TOKEN } from '../fixtures/voice.js';

/**
 * A buyer's business hours through the HTTP layer: a ping and a call at a pinned instant leave
 * the buyer out when the instant, read in the buyer's zone, is outside its hours, and offer it
 * when inside, also on the days America/New_York changes its clocks. And a caller blocked, then
 * unblocked, through the contacts routes.
 */
const gateway = useGateway();
afterEach(() => restoreClock());

const ZONE = 'America/New_York';
const CALLER = '+14155552671';
const HOURS_NUMBER = '+12125553001';
const ALWAYS_NUMBER = '+12125553002';

interface World {
  company: TestCompany;
  hours: Record<string, any>;
  always: Record<string, any>;
  vanity: string;
  number: string;
}

/** A buyer open `times` on `day` (0 = Sunday) in New York, ahead of a buyer open always. */
async function setup(day: number, times: string[]): Promise<World> {
  const company = await createTestCompany('hours');
  const hours = await createThrough(gateway, company, '/api/v1/buyers', {
    name: 'Office hours',
    number: HOURS_NUMBER,
    tier: 0,
    time_zone: ZONE,
    business_hours_schedule: [{ schedule: [{ day, times }] }],
  });
  const always = await createThrough(gateway, company, '/api/v1/buyers', { name: 'Always', number: ALWAYS_NUMBER, tier: 1 });
  const offer = await createThrough(gateway, company, '/api/v1/offers', { name: 'Offer', buyer_ids: [hours.id, always.id] });
  const number = (await createThrough(gateway, company, '/api/v1/phone_numbers', { offer_id: offer.id })).number as string;
  const vanity = `hours-${randomUUID().slice(0, 8)}`;
  await createThrough(gateway, company, '/api/v1/inbound_webhooks', { vanity_uri: vanity, offer_id: offer.id });
  return { company, hours, always, vanity, number };
}

const ping = (world: World, caller = CALLER) => call(gateway, { method: 'POST', path: `/api/v1/inbound_webhooks/ping/${world.vanity}?caller_id=${encodeURIComponent(caller)}` });
const simulate = (world: World, caller = CALLER) =>
  simulateCall({ baseUrl: gateway.baseUrl, authToken: VOICE_TOKEN, from: caller, to: world.number, buyers: [{ answer: true, answerAfter: 1, talk: 30 }] });

/** Which buyers a ping offers and whom a call dials first, at the pinned instant. */
async function routedAt(world: World): Promise<{ pinged: number[]; excluded: Array<{ buyer_id: number; reason: string }>; dialed: string }> {
  const reply = await ping(world);
  expect(reply.status, reply.text).toBe(200);
  const logs = await call(gateway, { path: '/api/v1/inbound_webhook_logs', authorization: world.company.authorization });
  const result = await simulate(world);
  expect(result.outcome).toBe('completed');
  return {
    pinged: (reply.body.buyers as Array<{ buyer_id: number }>).map((buyer) => buyer.buyer_id),
    excluded: logs.body.inbound_webhook_logs[0].excluded_buyers,
    dialed: result.dialed[0]!,
  };
}

async function expectOpen(world: World): Promise<void> {
  const routed = await routedAt(world);
  expect(routed.pinged).toContain(world.hours.id);
  expect(routed.excluded).toEqual([]);
  expect(routed.dialed).toBe(HOURS_NUMBER);
}

async function expectClosed(world: World): Promise<void> {
  const routed = await routedAt(world);
  expect(routed.pinged).toEqual([world.always.id]);
  expect(routed.excluded).toEqual([{ buyer_id: world.hours.id, name: 'Office hours', reason: 'outside_business_hours' }]);
  expect(routed.dialed).toBe(ALWAYS_NUMBER);
}

/** Pins the clock to a New York wall-clock time. */
function pinAt(local: DateTime): void {
  pinClock(local.toJSDate());
}

const weekday = (local: DateTime) => local.weekday % 7;

describe('business hours through ping and call', () => {
  // Tomorrow in New York, from 09:00 to 17:00 (the instants are 30 s inside each edge).
  const tomorrow = () => DateTime.fromJSDate(midDayTomorrow()).setZone(ZONE).startOf('day');

  it('offers and dials the buyer inside its hours', async () => {
    const day = tomorrow();
    pinAt(day.set({ hour: 16, minute: 59, second: 30 }));
    await expectOpen(await setup(weekday(day), ['09:00..17:00']));
  });

  it('leaves the buyer out just after its hours end, and on another weekday', async () => {
    const day = tomorrow();
    pinAt(day.set({ hour: 17, minute: 0, second: 30 }));
    await expectClosed(await setup(weekday(day), ['09:00..17:00']));
    pinAt(day.set({ hour: 12 }));
    await expectClosed(await setup((weekday(day) + 1) % 7, ['00:00..24:00']));
  });

  describe('on the day New York springs forward (02:00 EST becomes 03:00 EDT)', () => {
    const change = () => nextOffsetChange(ZONE, 'forward').day;

    it('reads opening hours in daylight time as soon as it starts', async () => {
      const day = change();
      // 13:30Z is 09:30 EDT: open (a stale EST offset would read 08:30 and leave it out).
      pinClock(day.toUTC().set({ hour: 13, minute: 30, second: 30 }).toJSDate());
      await expectOpen(await setup(weekday(day), ['09:00..17:00']));
      // 12:30Z is 08:30 EDT: not open yet.
      pinClock(day.toUTC().set({ hour: 12, minute: 30, second: 30 }).toJSDate());
      await expectClosed(await setup(weekday(day), ['09:00..17:00']));
    });

    it('never opens hours that do not exist that day (02:00..03:00)', async () => {
      const day = change();
      const before = day.set({ hour: 1, minute: 59, second: 30 }); // 01:59:30 EST
      pinAt(before);
      await expectClosed(await setup(weekday(day), ['02:00..03:00']));
      pinClock(before.plus({ minutes: 1 }).toJSDate()); // a minute later: 03:00:30 EDT
      await expectClosed(await setup(weekday(day), ['02:00..03:00']));
    });
  });

  describe('on the day New York falls back (02:00 EDT becomes 01:00 EST)', () => {
    const change = () => nextOffsetChange(ZONE, 'back').day;

    it('reads opening hours in standard time once it is back', async () => {
      const day = change();
      // 14:30Z is 09:30 EST: open; 13:30Z is 08:30 EST (a stale EDT offset would read 09:30).
      pinClock(day.toUTC().set({ hour: 14, minute: 30, second: 30 }).toJSDate());
      await expectOpen(await setup(weekday(day), ['09:00..17:00']));
      pinClock(day.toUTC().set({ hour: 13, minute: 30, second: 30 }).toJSDate());
      await expectClosed(await setup(weekday(day), ['09:00..17:00']));
    });

    it('is open in both 01:30s of the repeated hour, and closed at 02:30', async () => {
      const day = change();
      const firstOneThirty = day.toUTC().set({ hour: 5, minute: 30, second: 30 }); // 01:30:30 EDT
      pinClock(firstOneThirty.toJSDate());
      await expectOpen(await setup(weekday(day), ['01:00..02:00']));
      pinClock(firstOneThirty.plus({ hours: 1 }).toJSDate()); // 01:30:30 EST
      await expectOpen(await setup(weekday(day), ['01:00..02:00']));
      pinClock(firstOneThirty.plus({ hours: 2 }).toJSDate()); // 02:30:30 EST
      await expectClosed(await setup(weekday(day), ['01:00..02:00']));
    });
  });
});

describe('POST /api/v1/contacts/{caller_id}/caller_unblock', () => {
  it('lets a blocked caller through again: ping and call refused while blocked, routed after', async () => {
    const now = DateTime.fromJSDate(midDayTomorrow()).setZone(ZONE);
    pinAt(now);
    const world = await setup(weekday(now), ['00:00..24:00']);
    const caller = '+14155550142';
    const contact = `/api/v1/contacts/${encodeURIComponent(caller)}`;
    expect((await call(gateway, { method: 'POST', path: `${contact}/caller_block`, authorization: world.company.authorization })).status).toBe(200);
    expect((await ping(world, caller)).body).toMatchObject({ success: false, errors: ['The caller is blacklisted'] });
    const refused = await simulate(world, caller);
    expect(refused.outcome).toBe('rejected');
    expect(refused.dialed).toEqual([]);

    const unblocked = await call(gateway, { method: 'POST', path: `${contact}/caller_unblock`, authorization: world.company.authorization });
    expect(unblocked.status, unblocked.text).toBe(200);
    const suppressed = await call(gateway, { path: '/api/v1/contacts/suppression_list', authorization: world.company.authorization });
    expect(suppressed.text).not.toContain(caller.slice(2));
    expect((await ping(world, caller)).body).toMatchObject({ success: true });
    const routed = await simulate(world, caller);
    expect(routed.outcome).toBe('completed');
    expect(routed.dialed).toEqual([HOURS_NUMBER]);
  });
});
