import { describe, expect, it } from 'vitest';
import { clock } from '../../shared/adapters/clock.js';
import { getLead } from '../../shared/leads/lead-store.js';
import { midDayTomorrow, pinClock, usePinnedClock } from '../fixtures/clock.js';
import { createTestCompany, type TestCompany } from '../fixtures/company.js';
import { call, useGateway } from '../fixtures/gateway.js';
import { asCompany, eventsOfLead, pendingOf, submitted } from '../fixtures/leads.js';
import { createThrough, receiveEvents } from '../fixtures/records.js';

const gateway = useGateway();
usePinnedClock(midDayTomorrow);

let callers = 0;
const newCaller = () => `+1415558${String(1000 + ++callers)}`;

async function world() {
  const company = await createTestCompany('leads-api');
  await receiveEvents(gateway, company, 'new_lead');
  const offer = await createThrough(gateway, company, '/api/v1/offers', { name: 'Offer A' });
  const schedule = await createThrough(gateway, company, '/api/v1/schedules', { name: 'Plan', offer_id: offer.id });
  return { company, offer, schedule };
}

const get = (company: TestCompany, path: string) => asCompany(gateway, company, 'GET', path);

describe('GET /api/v1/leads', () => {
  it('lists newest first with filters, columns, cursor paging, total_count and CSV', async () => {
    const { company, offer, schedule } = await world();
    const start = clock().now();
    const made: Record<string, any>[] = [];
    for (let i = 0; i < 5; i++) {
      pinClock(new Date(start.getTime() + i * 60_000));
      made.push(await submitted(gateway, { query: { lead_token: i < 3 ? offer.lead_token : schedule.lead_token, caller_id: newCaller(), traffic_source_id: '7', n: String(i) } }));
    }
    const ids = made.map((lead) => lead.id).reverse();

    const all = await get(company, '/api/v1/leads');
    expect(all.status, all.text).toBe(200);
    expect(all.body.leads.map((lead: any) => lead.id)).toEqual(ids);
    expect(all.body.metadata).toMatchObject({ root: 'leads', per_page: 25, total_count: 5, next_cursor: 0 });

    const ofOffer = await get(company, `/api/v1/leads?offer_id=${offer.id}&columns=id,status`);
    // Schedule leads carry their schedule's offer too.
    expect(ofOffer.body.leads).toEqual(ids.map((id) => ({ id, status: 'active' })));
    const ofSchedule = await get(company, `/api/v1/leads?schedule_id=${schedule.id}&root=false&columns=id`);
    expect(ofSchedule.body).toEqual(ids.slice(0, 2).map((id) => ({ id })));
    const byCaller = await get(company, `/api/v1/leads?caller_id=${encodeURIComponent(made[1]!.caller_id)}`);
    expect(byCaller.body.leads.map((lead: any) => lead.id)).toEqual([made[1]!.id]);
    expect(byCaller.body.metadata.total_count).toBe(1);

    await asCompany(gateway, company, 'PUT', `/api/v1/leads/${made[0]!.uuid}`, { status: 'removed' });
    const removed = await get(company, '/api/v1/leads?status=removed');
    expect(removed.body.leads.map((lead: any) => lead.id)).toEqual([made[0]!.id]);
    expect(removed.body.metadata.total_count).toBe(1);
    expect((await get(company, '/api/v1/leads?status=active')).body.metadata.total_count).toBe(4);

    const page1 = await get(company, '/api/v1/leads?per_page=2&cursor=-1');
    expect(page1.body.leads.map((lead: any) => lead.id)).toEqual(ids.slice(0, 2));
    const page2 = await get(company, `/api/v1/leads?per_page=2&cursor=${page1.body.metadata.next_cursor}`);
    expect(page2.body.leads.map((lead: any) => lead.id)).toEqual(ids.slice(2, 4));
    const page3 = await get(company, `/api/v1/leads?per_page=2&cursor=${page2.body.metadata.next_cursor}`);
    expect(page3.body.leads.map((lead: any) => lead.id)).toEqual(ids.slice(4));
    expect(page3.body.metadata.next_cursor).toBe(0);

    const window = await get(company, `/api/v1/leads?created_at_from=${encodeURIComponent(new Date(start.getTime() + 90_000).toISOString())}`);
    expect(window.body.leads.map((lead: any) => lead.id)).toEqual(ids.slice(0, 3));

    const csv = await get(company, '/api/v1/leads.csv?columns=id,caller_id,status');
    expect(csv.status).toBe(200);
    expect(csv.headers.get('content-type')).toMatch(/text\/csv/);
    const lines = csv.text.trim().split(/\r?\n/);
    expect(lines[0]).toBe('id,caller_id,status');
    expect(lines.slice(1).map((line) => Number(line.split(',')[0]))).toEqual(ids);

    const bad = await get(company, '/api/v1/leads?status=lost&offer_id=x&columns=nope');
    expect(bad.status).toBe(422);
    expect(Object.keys(bad.body.errors).sort()).toEqual(['columns', 'offer_id', 'status']);
  });

  it('reports lead figures by offer, schedule, status and traffic source from the rollups', async () => {
    const { company, offer, schedule } = await world();
    const callerA = newCaller();
    await submitted(gateway, { query: { lead_token: offer.lead_token, caller_id: callerA, traffic_source_id: '42' } });
    await submitted(gateway, { query: { lead_token: offer.lead_token, caller_id: newCaller() } });
    const scheduled = await submitted(gateway, { query: { lead_token: schedule.lead_token, caller_id: newCaller(), traffic_source_id: '42' } });
    await call(gateway, { method: 'PUT', path: `/api/v1/leads/${encodeURIComponent(callerA)}/caller_opt_out?lead_token=${offer.lead_token}` });

    const report = async (category: string) => (await get(company, `/api/v1/leads/reports?category=${category}`)).body;
    const byOffer = await report('offer');
    expect(byOffer.reports).toEqual([expect.objectContaining({ category: 'offer', value: offer.id, name: 'Offer A', leads: 3, active: 2, opted_out: 1, converted: 0 })]);
    expect((await report('schedule')).reports).toEqual([
      expect.objectContaining({ value: null, leads: 2, opted_out: 1 }),
      expect.objectContaining({ value: schedule.id, name: 'Plan', leads: 1, active: 1 }),
    ]);
    expect((await report('status')).reports).toEqual([
      expect.objectContaining({ value: 'active', leads: 2, active: 2 }),
      expect.objectContaining({ value: 'opted_out', leads: 1, opted_out: 1 }),
    ]);
    expect((await report('traffic_source')).reports).toEqual([expect.objectContaining({ value: 42, leads: 2 }), expect.objectContaining({ value: null, leads: 1 })]);
    // Deleting a lead takes it out of the figures.
    expect((await asCompany(gateway, company, 'DELETE', `/api/v1/leads/${scheduled.id}/id`)).status).toBe(200);
    expect((await report('schedule')).reports).toEqual([expect.objectContaining({ value: null, leads: 2 })]);
    const yesterday = await get(company, '/api/v1/leads/reports?created_at_from=2020-01-01&created_at_to=2020-01-02');
    expect(yesterday.body.reports).toEqual([]);
  });
});

describe('one lead through the API', () => {
  it('shows by id or uuid, updates by uuid (data merged, lead_changed), deletes by internal id', async () => {
    const { company, schedule } = await world();
    const lead = await submitted(gateway, { query: { lead_token: schedule.lead_token, caller_id: newCaller(), a: '1' } });
    const byId = await get(company, `/api/v1/leads/${lead.id}`);
    const byUuid = await get(company, `/api/v1/leads/${lead.uuid}?time_zone=America/Chicago`);
    expect(byId.body.lead).toMatchObject({ id: lead.id, uuid: lead.uuid });
    expect(byUuid.body.lead.created_at).toMatch(/-0[56]:00$/);

    const updated = await asCompany(gateway, company, 'PUT', `/api/v1/leads/${lead.uuid}`, { email: 'Lee@Example.com', data: { b: 2 }, lead_priority: 3, next_action_at: '2099-01-01 00:00:00 +0000' });
    expect(updated.status, updated.text).toBe(200);
    expect(updated.body.lead).toMatchObject({ email: 'lee@example.com', data: { a: '1', b: 2 }, lead_priority: 3, next_action_at: '2099-01-01T00:00:00.000+00:00' });
    const stored = (await getLead(company.id, lead.id))!;
    expect((await pendingOf(lead.id)).map((entry) => entry.version)).toContain(stored.step_version);
    expect(await eventsOfLead(lead.id)).toEqual(['new_lead', 'lead_changed']);

    const reopen = await asCompany(gateway, company, 'PUT', `/api/v1/leads/${lead.uuid}`, { status: 'opted_out' });
    expect(reopen.body.lead).toMatchObject({ status: 'opted_out', next_action_at: null });
    const back = await asCompany(gateway, company, 'PUT', `/api/v1/leads/${lead.uuid}`, { status: 'active' });
    expect(back.status).toBe(422);

    const deleted = await asCompany(gateway, company, 'DELETE', `/api/v1/leads/${lead.id}/id`);
    expect(deleted.status).toBe(200);
    expect((await get(company, `/api/v1/leads/${lead.id}`)).status).toBe(404);
    expect((await get(company, `/api/v1/leads/${lead.uuid}`)).status).toBe(404);
    expect((await asCompany(gateway, company, 'DELETE', `/api/v1/leads/${lead.id}/id`)).status).toBe(404);
  });

  it("answers 404 for another company's lead on every route", async () => {
    const { schedule } = await world();
    const other = await createTestCompany('leads-api-other');
    const lead = await submitted(gateway, { query: { lead_token: schedule.lead_token, caller_id: newCaller() } });
    for (const path of [`/api/v1/leads/${lead.id}`, `/api/v1/leads/${lead.uuid}`]) expect((await get(other, path)).status).toBe(404);
    expect((await asCompany(gateway, other, 'PUT', `/api/v1/leads/${lead.uuid}`, { status: 'removed' })).status).toBe(404);
    expect((await asCompany(gateway, other, 'DELETE', `/api/v1/leads/${lead.id}/id`)).status).toBe(404);
    expect((await get(other, '/api/v1/leads')).body.leads).toEqual([]);
    expect((await get(other, `/api/v1/leads?ids=${lead.id}`)).body.leads).toEqual([]);
  });
});

describe('the caller operations (lead_token)', () => {
  it('opt out, remove and move to the end of the schedule, with their alternate methods and events', async () => {
    const { schedule, offer } = await world();
    const caller = newCaller();
    const encoded = encodeURIComponent(caller);
    const lead = await submitted(gateway, { query: { lead_token: schedule.lead_token, caller_id: caller } });
    const v0 = (await getLead(lead.company_id, lead.id))!.step_version;

    const moved = await call(gateway, { method: 'POST', path: `/api/v1/leads/${encoded}/caller_move_to_end_of_schedule?lead_token=${schedule.lead_token}` });
    expect(moved.status, moved.text).toBe(200);
    expect(moved.body).toMatchObject({ success: true, lead: { id: lead.id, phase: 'end_of_schedule_actions', action_index: 0 }, lead_ids: [lead.id] });
    expect((await getLead(lead.company_id, lead.id))!.step_version).toBeGreaterThan(v0);

    const offerToken = await call(gateway, { method: 'PUT', path: `/api/v1/leads/${encoded}/caller_move_to_end_of_schedule?lead_token=${offer.lead_token}` });
    expect(offerToken.status).toBe(422);

    const optedOut = await call(gateway, { method: 'GET', path: `/api/v1/leads/${encoded}/caller_opt_out?lead_token=${schedule.lead_token}` });
    expect(optedOut.body.lead).toMatchObject({ status: 'opted_out', next_action_at: null, phase: null });
    expect(await eventsOfLead(lead.id)).toEqual(['new_lead', 'lead_changed', 'lead_opted_out', 'lead_ended']);
    const again = await call(gateway, { method: 'PUT', path: `/api/v1/leads/${encoded}/caller_opt_out?lead_token=${schedule.lead_token}` });
    expect(again.status).toBe(404);
    expect(again.body.success).toBe(false);

    const other = await submitted(gateway, { query: { lead_token: offer.lead_token, caller_id: caller } });
    for (const method of ['DELETE']) {
      const removed = await call(gateway, { method, path: `/api/v1/leads/${caller.slice(1)}/caller_remove?lead_token=${offer.lead_token}` });
      expect(removed.body.lead).toMatchObject({ id: other.id, status: 'removed' });
    }
    expect(await eventsOfLead(other.id)).toEqual(['new_lead', 'lead_ended']);
    const noToken = await call(gateway, { method: 'POST', path: `/api/v1/leads/${encoded}/caller_remove` });
    expect(noToken.status).toBe(422);
    expect(noToken.body.errors).toEqual({ lead_token: ['is required'] });

    const listed = await call(gateway, { path: `/api/v1/leads/${offer.lead_token}/${encoded}/by_caller_number` });
    expect(listed.status, listed.text).toBe(200);
    expect(listed.body).toMatchObject({ success: true, metadata: { root: 'leads', total_count: 1 } });
    expect(listed.body.leads.map((row: any) => row.id)).toEqual([other.id]);
    expect((await call(gateway, { path: `/api/v1/leads/unknown-token/${encoded}/by_caller_number` })).status).toBe(404);
  });
});
