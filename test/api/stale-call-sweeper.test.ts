import { describe, expect, it } from 'vitest';
import { getCall, liveCalls } from '../../shared/calls/call-store.js';
import { sweepStaleCalls } from '../../shared/calls/stale-call-sweeper.js';
import { MAX_TALK_SECONDS, STALE_AFTER_SECONDS } from '../../shared/calls/stale-calls.js';
import { allCompanyIds } from '../../shared/db/companies.js';
import { createTestCompany } from '../fixtures/company.js';
import { call, useGateway } from '../fixtures/gateway.js';
import { createThrough, receiveEvents } from '../fixtures/records.js';
import { callFields, carrierPost, dialOf, eventsOfCall, idsOf, newCallSid, showBuyer, VOICE_BASE } from '../fixtures/voice.js';

// Numbers are unique across the deployment: this file buys from a range no other file uses.

const gateway = useGateway();

const BUYER_NUMBER = '+12125557000';
const HANGUP = '<?xml version="1.0" encoding="UTF-8"?><Response><Hangup/></Response>';
const at = (iso: string, seconds: number) => new Date(Date.parse(iso) + seconds * 1000);

describe('the stale-call sweeper', () => {
  it('ends a call whose final callback was lost as that callback would have, frees the buyer, and runs once', async () => {
    const company = await createTestCompany('sweeper');
    await receiveEvents(gateway, company);
    const buyer = await createThrough(gateway, company, '/api/v1/buyers', { name: 'Capped', number: BUYER_NUMBER, concurrency_cap_limit: 1 });
    const offer = await createThrough(gateway, company, '/api/v1/offers', { name: 'Offer', buyer_ids: [buyer.id] });
    const number = (await createThrough(gateway, company, '/api/v1/phone_numbers', { offer_id: offer.id })).number as string;
    const incoming = (sid: string, from: string) => carrierPost(gateway, `${VOICE_BASE}/incoming`, { ...callFields(sid, from, number), CallStatus: 'ringing' });

    // A call reaches the buyer and is answered; the carrier's dial_action and status never come.
    const lostSid = newCallSid();
    const dial = dialOf((await incoming(lostSid, '+14155550001')).text)!;
    expect(dial.target).toBe(BUYER_NUMBER);
    const { callId } = idsOf(dial.action);
    expect((await carrierPost(gateway, dial.statusCallback!, { ...callFields(`${lostSid}-leg1`, '+14155550001', number), CallStatus: 'in-progress' })).status).toBe(200);
    expect(await showBuyer(gateway, company, buyer.id)).toMatchObject({ concurrency_cap_used: 1 });
    // The slot is held: the next caller finds nobody.
    expect((await incoming(newCallSid(), '+14155550002')).text).toBe(HANGUP);

    const live = (await getCall(company.id, callId)) as Record<string, any>;
    expect(live).toMatchObject({ in_progress: true, status: 'in_progress' });

    // Not yet stale one second before the maximum.
    expect(await sweepStaleCalls(at(live.created_at, STALE_AFTER_SECONDS - 1), [company.id])).toEqual({ companies: 1, ended: [] });
    expect(await getCall(company.id, callId)).toEqual(live);

    // Past it: ended.
    const now = at(live.created_at, STALE_AFTER_SECONDS + 60);
    expect(await sweepStaleCalls(now, [company.id])).toEqual({ companies: 1, ended: [{ companyId: company.id, callId }] });
    const ended = (await getCall(company.id, callId)) as Record<string, any>;
    expect(ended).toMatchObject({
      status: 'completed',
      in_progress: false,
      rolled_up: true,
      ended_at: now.toISOString(),
      answered_duration: MAX_TALK_SECONDS,
      total_duration: STALE_AFTER_SECONDS,
    });
    expect(ended.attempts).toEqual([expect.objectContaining({ status: 'completed', released: true, answered_duration: MAX_TALK_SECONDS })]);
    expect(ended.timeline.at(-1)).toMatchObject({ type: 'ended', status: 'completed', reason: expect.stringContaining('stale-call sweeper') });
    expect(await eventsOfCall(callId)).toEqual(['new_call', 'call_ringing', 'call_forwarded', 'call_ended']);
    expect((await liveCalls(company.id, 10)).map((c) => c.id)).not.toContain(callId);

    // Its figures are booked in the reports like any ended call's.
    const day = String(live.created_at).slice(0, 10);
    const report = await call(gateway, { path: `/api/v1/calls/reports?category=status&created_at_from=${day}&created_at_to=${day}T23:59:59Z`, authorization: company.authorization });
    expect(report.status, report.text).toBe(200);
    expect(report.body.reports.find((row: any) => row.value === 'completed')).toMatchObject({ calls: 1, answered: 1, answered_duration: MAX_TALK_SECONDS, total_duration: STALE_AFTER_SECONDS });

    // The buyer's slot is free: a new call reaches them.
    expect(await showBuyer(gateway, company, buyer.id)).toMatchObject({ concurrency_cap_used: 0 });
    const nextSid = newCallSid();
    expect(dialOf((await incoming(nextSid, '+14155550003')).text)?.target).toBe(BUYER_NUMBER);
    await carrierPost(gateway, `${VOICE_BASE}/status`, { ...callFields(nextSid, '+14155550003', number), CallStatus: 'completed', CallDuration: '20' });

    // Running again, now or much later, changes nothing; a late callback for the call is answered neutrally.
    const buyerAfter = await showBuyer(gateway, company, buyer.id);
    expect(await sweepStaleCalls(now, [company.id])).toEqual({ companies: 1, ended: [] });
    expect(await sweepStaleCalls(at(live.created_at, 30 * 24 * 3600), [company.id])).toEqual({ companies: 1, ended: [] });
    expect(await carrierPost(gateway, dial.action, { ...callFields(lostSid, '+14155550001', number), DialCallStatus: 'completed', DialCallDuration: '30' })).toEqual({ status: 200, text: HANGUP });
    expect(await getCall(company.id, callId)).toEqual(ended);
    expect(await eventsOfCall(callId)).toEqual(['new_call', 'call_ringing', 'call_forwarded', 'call_ended']);
    expect(await showBuyer(gateway, company, buyer.id)).toEqual(buyerAfter);
  });

  it('cancels a call lost while its buyer was still ringing, releasing the slot', async () => {
    const company = await createTestCompany('sweeper-ringing');
    const buyer = await createThrough(gateway, company, '/api/v1/buyers', { name: 'Capped', number: BUYER_NUMBER, concurrency_cap_limit: 1 });
    const offer = await createThrough(gateway, company, '/api/v1/offers', { name: 'Offer', buyer_ids: [buyer.id] });
    const number = (await createThrough(gateway, company, '/api/v1/phone_numbers', { offer_id: offer.id })).number as string;
    const dial = dialOf((await carrierPost(gateway, `${VOICE_BASE}/incoming`, { ...callFields(newCallSid(), '+14155550009', number), CallStatus: 'ringing' })).text)!;
    const { callId } = idsOf(dial.action);
    const live = (await getCall(company.id, callId)) as Record<string, any>;
    const now = at(live.created_at, STALE_AFTER_SECONDS + 1);
    expect((await sweepStaleCalls(now, [company.id])).ended).toEqual([{ companyId: company.id, callId }]);
    expect(await getCall(company.id, callId)).toMatchObject({ status: 'canceled', in_progress: false, answered_duration: 0, total_duration: STALE_AFTER_SECONDS });
    expect(await showBuyer(gateway, company, buyer.id)).toMatchObject({ concurrency_cap_used: 0 });
  });

  it('lists every company from the company sequence, without a Scan', async () => {
    const company = await createTestCompany('sweeper-list');
    const ids = await allCompanyIds();
    expect(ids).toContain(company.id);
    expect(ids).toEqual(Array.from({ length: ids.length }, (_, index) => index + 1));
  });
});
