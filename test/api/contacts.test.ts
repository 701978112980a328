import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { telephonyPort } from '../../shared/adapters/index.js';
import type { CallControlRecorder } from '../../shared/adapters/local/call-control-recorder.js';
import { blockNumber } from '../../shared/contacts/blacklist.js';
import { simulateCall } from '../../shared/local/call-simulator.js';
import { createTestCompany } from '../fixtures/company.js';
import { call, useGateway } from '../fixtures/gateway.js';
import { asCompany, submitted } from '../fixtures/leads.js';
import { createThrough } from '../fixtures/records.js';
import { callFields, carrierPost, newCallSid, VOICE_BASE, VOICE_TOKEN } from '../fixtures/voice.js';

const gateway = useGateway();

let callers = 0;
const newCaller = () => `+1415559${String(1000 + ++callers)}`;

async function world() {
  const company = await createTestCompany('contacts');
  const buyer = await createThrough(gateway, company, '/api/v1/buyers', { name: 'B', number: '+12125558001' });
  const offer = await createThrough(gateway, company, '/api/v1/offers', { name: 'Offer', buyer_ids: [buyer.id] });
  const number = await createThrough(gateway, company, '/api/v1/phone_numbers', { offer_id: offer.id });
  return { company, offer, number: number.number as string };
}

describe('contacts', () => {
  it('shows one caller across its leads, calls and blacklist entry; 404 for a number the company never saw', async () => {
    const { company, offer, number } = await world();
    const caller = newCaller();
    const lead = await submitted(gateway, { query: { lead_token: offer.lead_token, caller_id: caller, email: 'gus@example.com' } });
    const placed = await simulateCall({ baseUrl: gateway.baseUrl, authToken: VOICE_TOKEN, from: caller, to: number, buyers: [{ answer: true, answerAfter: 1, talk: 5 }] });
    const shown = await asCompany(gateway, company, 'GET', `/api/v1/contacts/${encodeURIComponent(caller)}`);
    expect(shown.status, shown.text).toBe(200);
    expect(shown.body.contact).toMatchObject({ id: caller, caller_id: caller, email: 'gus@example.com', blocked: false, lead_ids: [lead.id], call_ids: [placed.callId], first_name: null });
    // The path takes the number as digits too.
    expect((await asCompany(gateway, company, 'GET', `/api/v1/contacts/${caller.slice(1)}`)).body.contact.id).toBe(caller);

    expect((await asCompany(gateway, company, 'GET', `/api/v1/contacts/${encodeURIComponent(newCaller())}`)).status).toBe(404);
    expect((await asCompany(gateway, company, 'GET', '/api/v1/contacts/not-a-number')).status).toBe(422);
    const other = await createTestCompany('contacts-other');
    expect((await asCompany(gateway, other, 'GET', `/api/v1/contacts/${encodeURIComponent(caller)}`)).status).toBe(404);
  });

  it('updates its own fields (data merged), and records a number written before it ever called', async () => {
    const { company } = await world();
    const caller = newCaller();
    const put = await asCompany(gateway, company, 'PUT', `/api/v1/contacts/${encodeURIComponent(caller)}`, { first_name: 'Hal', notes: 'prefers mornings', data: { tier: 'a' } });
    expect(put.status, put.text).toBe(200);
    expect(put.body.contact).toMatchObject({ first_name: 'Hal', notes: 'prefers mornings', data: { tier: 'a' }, lead_ids: [], call_ids: [] });
    const again = await asCompany(gateway, company, 'PUT', `/api/v1/contacts/${encodeURIComponent(caller)}`, { last_name: 'Ives', notes: '', data: { score: 3 } });
    expect(again.body.contact).toMatchObject({ first_name: 'Hal', last_name: 'Ives', notes: null, data: { tier: 'a', score: 3 } });
    expect((await asCompany(gateway, company, 'GET', `/api/v1/contacts/${encodeURIComponent(caller)}`)).body.contact.last_name).toBe('Ives');
    const bad = await asCompany(gateway, company, 'PUT', `/api/v1/contacts/${encodeURIComponent(caller)}`, { email: 'no', data: 'x' });
    expect(bad.status).toBe(422);
    expect(Object.keys(bad.body.errors).sort()).toEqual(['data', 'email']);
    // Another company's contact of the same number is its own.
    const other = await createTestCompany('contacts-other');
    expect((await asCompany(gateway, other, 'GET', `/api/v1/contacts/${encodeURIComponent(caller)}`)).status).toBe(404);
  });

  it('hangs up every live call of the contact and answers how many', async () => {
    const { company, number } = await world();
    const caller = newCaller();
    const sid = newCallSid();
    const started = await carrierPost(gateway, `${VOICE_BASE}/incoming`, callFields(sid, caller, number));
    expect(started.status).toBe(200);
    const hungUp = await asCompany(gateway, company, 'DELETE', `/api/v1/contacts/${encodeURIComponent(caller)}/calls`);
    expect(hungUp.status, hungUp.text).toBe(200);
    expect(hungUp.body.contact).toMatchObject({ caller_id: caller, hung_up_count: 1 });
    expect((telephonyPort() as CallControlRecorder).hungUp).toContain(sid);
    const other = await createTestCompany('contacts-other');
    expect((await asCompany(gateway, other, 'DELETE', `/api/v1/contacts/${encodeURIComponent(caller)}/calls`)).body.contact.hung_up_count).toBe(0);
  });

  it('pages the suppression list by per_page and cursor', async () => {
    const { company } = await world();
    const numbers = Array.from({ length: 5 }, () => newCaller()).sort();
    for (const number of numbers) await blockNumber(company.id, number, new Date());
    const first = await asCompany(gateway, company, 'GET', '/api/v1/contacts/suppression_list?per_page=2');
    expect(first.body.contacts.map((row: any) => row.caller_id)).toEqual(numbers.slice(0, 2));
    const second = await asCompany(gateway, company, 'GET', `/api/v1/contacts/suppression_list?per_page=2&cursor=${first.body.metadata.next_cursor}`);
    expect(second.body.contacts.map((row: any) => row.caller_id)).toEqual(numbers.slice(2, 4));
    const third = await asCompany(gateway, company, 'GET', '/api/v1/contacts/suppression_list?per_page=2&page=3');
    expect(third.body.contacts.map((row: any) => row.caller_id)).toEqual(numbers.slice(4));
    expect(third.body.metadata.next_cursor).toBe(0);
  });
});

describe('unblock contact jobs', () => {
  it('remove the blacklist entries blocked within the range in the create request and count them', async () => {
    const company = await createTestCompany('unblock-jobs');
    const [early, middle, late] = [newCaller(), newCaller(), newCaller()];
    await blockNumber(company.id, early, new Date('2026-01-01T00:00:00Z'));
    await blockNumber(company.id, middle, new Date('2026-02-01T00:00:00Z'));
    await blockNumber(company.id, late, new Date('2026-03-01T00:00:00Z'));
    const other = await createTestCompany('unblock-other');
    await blockNumber(other.id, middle, new Date('2026-02-01T00:00:00Z'));

    const job = await createThrough(gateway, company, '/api/v1/unblock_contact_jobs', { blocked_at_from: '2026-01-15 00:00:00 +0000', blocked_at_to: '2026-02-15 00:00:00 +0000', description: `job ${randomUUID()}` });
    expect(job).toMatchObject({ unblock_count: 1 });
    expect(job.succeeded_at).toMatch(/\+00:00$/);
    const left = (await asCompany(gateway, company, 'GET', '/api/v1/contacts/suppression_list')).body.contacts.map((row: any) => row.caller_id);
    expect(left.sort()).toEqual([early, late].sort());
    // Another company's entry of the same number stays.
    expect((await asCompany(gateway, other, 'GET', '/api/v1/contacts/suppression_list')).body.contacts.map((row: any) => row.caller_id)).toEqual([middle]);

    const everything = await createThrough(gateway, company, '/api/v1/unblock_contact_jobs', {});
    expect(everything.unblock_count).toBe(2);
    expect((await call(gateway, { path: '/api/v1/contacts/suppression_list', authorization: company.authorization })).body.contacts).toEqual([]);
  });
});
