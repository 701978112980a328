import { describe, expect, it } from 'vitest';
import { clock } from '../../shared/adapters/clock.js';
import { simulateCall, type BuyerBehaviour } from '../../shared/local/call-simulator.js';
import { dialLead, NO_CONDITIONS } from '../../shared/leads/outbound-dial.js';
import { CALL_DATASET_STATS, LEAD_DATASET_STATS } from '../../shared/reporting/datasets.js';
import { midDayTomorrow, usePinnedClock } from '../fixtures/clock.js';
import { createTestCompany, type TestCompany } from '../fixtures/company.js';
import { expect422 } from '../fixtures/envelope.js';
import { call, useGateway } from '../fixtures/gateway.js';
import { createThrough } from '../fixtures/records.js';
import { storeLead } from '../fixtures/stored-leads.js';
import { newCallSid, VOICE_TOKEN } from '../fixtures/voice.js';

/**
 * Datasets, number impressions and do-not-call checks through the local gateway: each dataset
 * from calls, leads, charges and visitor numbers made in the test, the logs their actions write,
 * validation, and that another company sees none of it.
 */
const gateway = useGateway();
usePinnedClock(midDayTomorrow);

type Row = Record<string, any>;
const get = async (company: TestCompany, path: string) => call(gateway, { path, authorization: company.authorization });
const sum = (rows: Row[]) => rows.reduce((total, row) => total + Number(row.value), 0);

const ANSWER: BuyerBehaviour = { answer: true, answerAfter: 4, talk: 90 };
const NO_ANSWER: BuyerBehaviour = { answer: false, answerAfter: 30, talk: 0 };

async function offerWithNumber(company: TestCompany) {
  const buyer = await createThrough(gateway, company, '/api/v1/buyers', { name: 'Alpha', number: '+12125553100', current_conversion_revenue: 40, current_conversion_duration: 60 });
  const offer = await createThrough(gateway, company, '/api/v1/offers', { name: 'Main offer', buyer_ids: [buyer.id] });
  const number = (await createThrough(gateway, company, '/api/v1/phone_numbers', { offer_id: offer.id })).number as string;
  return { buyer, offer, number };
}

describe('GET /api/v1/datasets', () => {
  it('lists every dataset with its stats, categories, intervals and parameters', async () => {
    const company = await createTestCompany('datasets');
    const reply = await get(company, '/api/v1/datasets');
    expect(reply.status, reply.text).toBe(200);
    expect((reply.body.datasets as Row[]).map((row) => row.name)).toEqual(['calls', 'leads', 'billing', 'number_impressions']);
    expect(reply.body.datasets[0]).toMatchObject({ path: '/api/v1/datasets/calls/{stat}', stats: Object.keys(CALL_DATASET_STATS), intervals: ['hour', 'day', 'week', 'month'] });
    expect(reply.body.datasets[1].stats).toEqual(Object.keys(LEAD_DATASET_STATS));
  });
});

describe('GET /api/v1/datasets/calls/:stat', () => {
  it('sums the rollups of the calls made, in total and by category, and shows another company nothing', async () => {
    const company = await createTestCompany('datasets-calls');
    const other = await createTestCompany('datasets-calls-other');
    const { offer, number } = await offerWithNumber(company);
    for (const [from, buyer] of [['+14155554101', ANSWER], ['+14155554102', NO_ANSWER]] as const) {
      await simulateCall({ baseUrl: gateway.baseUrl, authToken: VOICE_TOKEN, from, to: number, buyers: [buyer], callSid: newCallSid() });
    }

    const count = await get(company, '/api/v1/datasets/calls/count');
    expect(count.status, count.text).toBe(200);
    const day = clock().now().toISOString().slice(0, 10);
    expect(count.body.dataset).toEqual([{ interval_start: `${day}T00:00:00.000+00:00`, category: null, category_value: null, name: null, stat: 'count', value: 2 }]);
    expect(count.body.metadata).toMatchObject({ dataset: 'calls', stat: 'count', interval: 'day', total_count: 1 });

    expect(sum((await get(company, '/api/v1/datasets/calls/answered')).body.dataset)).toBe(1);
    expect(sum((await get(company, '/api/v1/datasets/calls/converted')).body.dataset)).toBe(1);
    expect(sum((await get(company, '/api/v1/datasets/calls/revenue')).body.dataset)).toBe(40);
    const byOffer = await get(company, '/api/v1/datasets/calls/count?category=offer&interval=hour');
    expect(byOffer.body.dataset).toEqual([expect.objectContaining({ category: 'offer', category_value: offer.id, name: 'Main offer', value: 2 })]);
    expect(byOffer.body.dataset[0].interval_start).toBe(`${day}T12:00:00.000+00:00`);

    expect((await get(other, '/api/v1/datasets/calls/count?category=offer')).body.dataset).toEqual([]);
  });

  it('answers 404 for an unknown stat and 422 for bad parameters', async () => {
    const company = await createTestCompany('datasets-bad');
    expect((await get(company, '/api/v1/datasets/calls/nonsense')).status).toBe(404);
    expect((await get(company, '/api/v1/datasets/leads/constructor')).status).toBe(404);
    const bad = await get(company, '/api/v1/datasets/calls/count?interval=year&category=planet&time_zone=Mars/Base');
    expect(bad.status, bad.text).toBe(422);
    expect(Object.keys(bad.body.errors).sort()).toEqual(['category', 'interval', 'time_zone']);
    expect422(await get(company, '/api/v1/datasets/leads/count?created_at_from=2020-01-01&created_at_to=2022-01-01'), { created_at_to: ['must be at most 367 days after created_at_from'] });
    expect((await get(company, '/api/v1/datasets/billing?interval=hour')).status).toBe(422);
    expect((await get(company, '/api/v1/datasets/number_impressions?ring_pool_id=0')).status).toBe(422);
  });
});

describe('GET /api/v1/datasets/leads/:stat and do-not-call checks at intake', () => {
  it('counts the leads submitted and logs a check per intake, blocked for a blacklisted caller', async () => {
    const company = await createTestCompany('datasets-leads');
    const other = await createTestCompany('datasets-leads-other');
    const offer = await createThrough(gateway, company, '/api/v1/offers', { name: 'Leads offer' });
    const blockedCaller = '+14155556001';
    expect((await call(gateway, { method: 'POST', path: `/api/v1/contacts/${encodeURIComponent(blockedCaller)}/caller_block`, authorization: company.authorization })).status).toBe(200);
    const leads: Row[] = [];
    for (const caller of [blockedCaller, '+14155556002']) {
      const reply = await call(gateway, { method: 'POST', path: `/api/v1/leads?lead_token=${offer.lead_token}&caller_id=${encodeURIComponent(caller)}` });
      expect(reply.status, reply.text).toBe(200);
      leads.push(reply.body.lead);
    }
    const count = await get(company, '/api/v1/datasets/leads/count?category=offer');
    expect(count.body.dataset).toEqual([expect.objectContaining({ category_value: offer.id, name: 'Leads offer', value: 2 })]);
    expect(sum((await get(company, '/api/v1/datasets/leads/active')).body.dataset)).toBe(2);
    expect((await get(company, '/api/v1/datasets/leads/converted')).body.dataset).toEqual([expect.objectContaining({ value: 0 })]);

    const logs = await get(company, '/api/v1/dnc_check_logs?source=lead');
    expect(logs.status, logs.text).toBe(200);
    expect(logs.body.dnc_check_logs).toEqual([
      expect.objectContaining({ caller_number: '+14155556002', blocked: false, result: 'allowed', source: 'lead', lead_id: leads[1]!.id }),
      expect.objectContaining({ caller_number: blockedCaller, blocked: true, result: 'blocked', source: 'lead', lead_id: leads[0]!.id }),
    ]);
    expect((await get(company, '/api/v1/dnc_check_logs?result=blocked')).body.dnc_check_logs).toHaveLength(1);
    expect((await get(company, `/api/v1/dnc_check_logs?caller_number=${encodeURIComponent('(415) 555-6002')}`)).body.dnc_check_logs).toHaveLength(1);
    expect((await get(company, '/api/v1/dnc_check_logs?source=elsewhere')).status).toBe(422);
    const page = await get(company, '/api/v1/dnc_check_logs?per_page=1');
    expect(page.body.dnc_check_logs).toHaveLength(1);
    const next = await get(company, `/api/v1/dnc_check_logs?per_page=1&cursor=${encodeURIComponent(page.body.metadata.next_cursor)}`);
    expect(next.body.dnc_check_logs[0].lead_id).toBe(leads[0]!.id);

    expect((await get(other, '/api/v1/dnc_check_logs')).body.dnc_check_logs).toEqual([]);
    expect((await get(other, '/api/v1/datasets/leads/count')).body.dataset).toEqual([]);
  });
});

describe('do-not-call checks before outbound dials', () => {
  it('logs a blocked dial of a blacklisted lead, and an allowed one', async () => {
    const company = await createTestCompany('datasets-dnc');
    const { offer } = await offerWithNumber(company);
    const schedule = await createThrough(gateway, company, '/api/v1/schedules', { name: 'Follow-up', offer_id: offer.id });
    const caller = '+14155556101';
    expect((await call(gateway, { method: 'POST', path: `/api/v1/contacts/${encodeURIComponent(caller)}/caller_block`, authorization: company.authorization })).status).toBe(200);
    const lead = await storeLead(company.id, clock().now(), { schedule_id: schedule.id, caller_id: caller, lead_token: schedule.lead_token, phase: 'actions', data: {} });
    expect(await dialLead(company.id, lead, NO_CONDITIONS, clock().now())).toMatchObject({ placed: false, reason: 'blacklisted' });
    const allowed = await storeLead(company.id, clock().now(), { schedule_id: schedule.id, caller_id: '+14155556102', lead_token: schedule.lead_token, phase: 'actions', data: {} });
    expect((await dialLead(company.id, allowed, NO_CONDITIONS, clock().now())).placed).toBe(true);

    const logs = (await get(company, '/api/v1/dnc_check_logs?source=dial')).body.dnc_check_logs as Row[];
    expect(logs).toEqual([
      expect.objectContaining({ caller_number: '+14155556102', blocked: false, source: 'dial', lead_id: allowed.id }),
      expect.objectContaining({ caller_number: caller, blocked: true, result: 'blocked', source: 'dial', lead_id: lead.id }),
    ]);
  });
});

describe('number impressions', () => {
  it('records each visitor number as an impression, listed and counted by pool and number', async () => {
    const company = await createTestCompany('datasets-dni');
    const other = await createTestCompany('datasets-dni-other');
    const offer = await createThrough(gateway, company, '/api/v1/offers', { name: 'DNI' });
    const pool = await createThrough(gateway, company, '/api/v1/ring_pools', { name: 'Landing pool', offer_id: offer.id });
    const numbers = [
      await createThrough(gateway, company, '/api/v1/phone_numbers', { offer_id: offer.id, ring_pool_id: pool.id }),
      await createThrough(gateway, company, '/api/v1/phone_numbers', { offer_id: offer.id, ring_pool_id: pool.id }),
    ];
    const given: Row[] = [];
    for (let i = 0; i < 3; i++) {
      const reply = await call(gateway, { method: 'POST', path: `/api/v1/ring_pools/${pool.id}/visitor_number`, authorization: company.authorization, json: { visitor: { utm_source: 'google' } } });
      expect(reply.status, reply.text).toBe(200);
      given.push(reply.body.visitor_number);
    }
    const list = await get(company, '/api/v1/impressions');
    expect(list.status, list.text).toBe(200);
    expect((list.body.impressions as Row[]).map((row) => row.number)).toEqual(given.map((row) => row.number).reverse());
    expect(list.body.impressions[0]).toMatchObject({ ring_pool_id: pool.id, phone_number_id: given[2]!.phone_number_id });
    expect((await get(company, `/api/v1/impressions?phone_number_id=${numbers[0]!.id}`)).body.impressions).toHaveLength(given.filter((row) => row.phone_number_id === numbers[0]!.id).length);

    const byPool = await get(company, '/api/v1/datasets/number_impressions?category=ring_pool');
    expect(byPool.status, byPool.text).toBe(200);
    expect(byPool.body.dataset).toEqual([expect.objectContaining({ category: 'ring_pool', category_value: pool.id, name: 'Landing pool', stat: 'impressions', value: 3 })]);
    const byNumber = (await get(company, '/api/v1/datasets/number_impressions?category=number')).body.dataset as Row[];
    expect(sum(byNumber)).toBe(3);
    expect(byNumber.map((row) => row.category_value).sort()).toEqual([...new Set(given.map((row) => row.number))].sort());

    expect((await get(other, '/api/v1/impressions')).body.impressions).toEqual([]);
    expect((await get(other, '/api/v1/datasets/number_impressions')).body.dataset).toEqual([]);
  });
});

describe('GET /api/v1/datasets/billing', () => {
  it('sums the charges of the day by kind', async () => {
    const company = await createTestCompany('datasets-billing');
    const { number } = await offerWithNumber(company);
    const placed = await simulateCall({ baseUrl: gateway.baseUrl, authToken: VOICE_TOKEN, from: '+14155556201', to: number, buyers: [ANSWER], callSid: newCallSid() });
    for (let i = 0; i < 2; i++) expect((await get(company, `/api/v1/calls/${placed.callId}/events`)).status).toBe(200);
    const count = await get(company, '/api/v1/datasets/billing?stat=count&category=kind');
    expect(count.status, count.text).toBe(200);
    expect(count.body.dataset).toEqual([expect.objectContaining({ category: 'kind', category_value: 'advanced_call_analysis', stat: 'count', value: 2 })]);
    expect(sum((await get(company, '/api/v1/datasets/billing')).body.dataset)).toBeCloseTo(0.0004, 6);
  });
});
