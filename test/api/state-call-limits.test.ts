import { describe, expect, it } from 'vitest';
import { getCall } from '../../shared/calls/call-store.js';
import { endStaleCall } from '../../shared/calls/call-flow.js';
import { clock } from '../../shared/adapters/clock.js';
import { midDayTomorrow, usePinnedClock } from '../fixtures/clock.js';
import { createTestCompany, type TestCompany } from '../fixtures/company.js';
import { expect405, expect422 } from '../fixtures/envelope.js';
import { call, useGateway } from '../fixtures/gateway.js';
import { createThrough } from '../fixtures/records.js';
import { callFields, carrierPost, dialOf, idsOf, newCallSid, VOICE_BASE } from '../fixtures/voice.js';

const gateway = useGateway();
// Daily limits count per UTC day: every test runs at one pinned mid-day.
usePinnedClock(midDayTomorrow);

const post = (company: TestCompany, path: string, json: unknown) => call(gateway, { method: 'POST', path, authorization: company.authorization, json });

async function limitedOffer(label: string) {
  const company = await createTestCompany(label);
  const buyer = await createThrough(gateway, company, '/api/v1/buyers', { name: 'Buyer', number: '+12125556000' });
  const offer = await createThrough(gateway, company, '/api/v1/offers', { name: 'Offer', buyer_ids: [buyer.id] });
  const number = await createThrough(gateway, company, '/api/v1/phone_numbers', { offer_id: offer.id });
  return { company, buyer, offer, number };
}

interface Rung {
  sid: string;
  twiml: string;
  callId?: number;
}

async function ring(to: string, from: string, extra: Record<string, string> = {}): Promise<Rung> {
  const sid = newCallSid();
  const reply = await carrierPost(gateway, `${VOICE_BASE}/incoming`, { ...callFields(sid, from, to), CallStatus: 'ringing', ...extra });
  expect(reply.status).toBe(200);
  const dial = dialOf(reply.text);
  return { sid, twiml: reply.text, callId: dial ? idsOf(dial.action).callId : undefined };
}

const hangUp = (rung: Rung, to: string, from: string) => carrierPost(gateway, `${VOICE_BASE}/status`, { ...callFields(rung.sid, from, to), CallStatus: 'completed', CallDuration: '30' });

describe('state_call_limits', () => {
  it('serve list, new, create and show only, and validate their fields', async () => {
    const { company, offer } = await limitedOffer('state-limits-crud');
    expect422(await post(company, '/api/v1/state_call_limits', { state: 'ZZ', concurrent_limit: 1 }), { state: ['is not a US state code (e.g. CA)'] });
    expect422(await post(company, '/api/v1/state_call_limits', { state: 'CA' }), { concurrent_limit: ['or daily_limit must be given'] });
    expect422(await post(company, '/api/v1/state_call_limits', { state: 'CA', daily_limit: -1 }), { daily_limit: ['must be greater than or equal to 0'] });
    const limit = await createThrough(gateway, company, '/api/v1/state_call_limits', { state: 'ny', offer_id: offer.id, daily_limit: 10 });
    expect(limit).toMatchObject({ state: 'NY', offer_id: offer.id, daily_limit: 10, concurrent_limit: null, enabled: true });
    const shown = await call(gateway, { path: `/api/v1/state_call_limits/${limit.id}`, authorization: company.authorization });
    expect(shown.body.state_call_limit.id).toBe(limit.id);
    expect405(await call(gateway, { method: 'PUT', path: `/api/v1/state_call_limits/${limit.id}`, authorization: company.authorization, json: { daily_limit: 1 } }), 'GET');
  });

  it('refuse the fourth concurrent call from the state, admit it after one ends, and leave other states alone', async () => {
    const { company, offer, number } = await limitedOffer('state-limits-concurrent');
    const limit = await createThrough(gateway, company, '/api/v1/state_call_limits', { name: 'California', state: 'CA', offer_id: offer.id, concurrent_limit: 3 });
    // 415 is a California area code; the carrier sends no FromState here.
    const callers = ['+14155550141', '+14155550142', '+14155550143', '+14155550144'];
    const live = [await ring(number.number, callers[0]!), await ring(number.number, callers[1]!), await ring(number.number, callers[2]!)];
    for (const rung of live) expect(rung.callId).toBeDefined();
    const fourth = await ring(number.number, callers[3]!);
    expect(fourth.twiml).toContain('<Reject');
    // A caller from New York (212) is not limited by California's cap.
    expect((await ring(number.number, '+12125550145')).callId).toBeDefined();
    // FromState wins over the area code: a 415 number roaming in Texas is not Californian.
    expect((await ring(number.number, '+14155550146', { FromState: 'TX' })).callId).toBeDefined();

    await hangUp(live[0]!, number.number, callers[0]!);
    await hangUp(live[0]!, number.number, callers[0]!); // a retried final callback releases nothing more
    const admitted = await ring(number.number, callers[3]!);
    expect(admitted.callId).toBeDefined();
    expect((await getCall(company.id, admitted.callId!))!.status).toBe('ringing');
    // Three live again: the next Californian is refused, with the limit named on its timeline.
    expect((await ring(number.number, '+14155550147')).twiml).toContain('<Reject');
    const list = await call(gateway, { path: '/api/v1/calls?per_page=20', authorization: company.authorization });
    const refused = (list.body.calls as Array<Record<string, any>>).filter((row) => row.status === 'blocked').map((row) => row.caller_number);
    expect(refused.sort()).toEqual(['+14155550144', '+14155550147']);
    expect((await getCall(company.id, live[0]!.callId!))!.state_limit_holds).toEqual([]);
    expect((await getCall(company.id, live[1]!.callId!))!.state_limit_holds).toEqual([limit.id]);
  });

  it('name the limit on the refused call and release a slot when the stale-call sweeper ends a call', async () => {
    const { company, number } = await limitedOffer('state-limits-stale');
    const limit = await createThrough(gateway, company, '/api/v1/state_call_limits', { state: 'CA', concurrent_limit: 1 });
    const first = await ring(number.number, '+14155550151');
    const second = await ring(number.number, '+14155550152');
    expect(second.twiml).toContain('<Reject');
    const list = await call(gateway, { path: '/api/v1/calls?per_page=10', authorization: company.authorization });
    const refused = (list.body.calls as Array<Record<string, any>>).find((row) => row.caller_number === '+14155550152')!;
    const stored = (await getCall(company.id, refused.id))!;
    expect(stored.status).toBe('blocked');
    expect(stored.timeline).toEqual(expect.arrayContaining([expect.objectContaining({ type: 'state_limited', state: 'CA', state_call_limit_id: limit.id, limit: 'concurrent_limit', value: 1 })]));
    const live = (await getCall(company.id, first.callId!))!;
    expect(await endStaleCall(company.id, { ...(live as any), id: first.callId! }, new Date(clock().now().getTime() + 6 * 3600_000))).toBe(true);
    expect(await endStaleCall(company.id, { ...(live as any), id: first.callId! }, new Date(clock().now().getTime() + 6 * 3600_000))).toBe(false);
    expect((await ring(number.number, '+14155550153')).callId).toBeDefined();
    expect((await ring(number.number, '+14155550154')).twiml).toContain('<Reject');
  });

  it('count daily calls and take the state from a token when the number tells nothing', async () => {
    const { company, number } = await limitedOffer('state-limits-daily');
    await createThrough(gateway, company, '/api/v1/state_call_limits', { state: 'OR', daily_limit: 2 });
    // A UK caller with a `state` token (set by a matcher) counts as Oregon.
    await createThrough(gateway, company, '/api/v1/token_matchers', { match_field: 'caller_number', match_type: 'prefix', match_value: '+44', set_tokens: 'state:or' });
    const from = ['+442071838750', '+442071838751', '+442071838752'];
    const calls = [];
    for (const caller of from) calls.push(await ring(number.number, caller));
    expect(calls[0]!.callId).toBeDefined();
    expect(calls[1]!.callId).toBeDefined();
    expect(calls[2]!.twiml).toContain('<Reject');
    // Ending a call frees no daily slot.
    await hangUp(calls[0]!, number.number, from[0]!);
    expect((await ring(number.number, '+442071838753')).twiml).toContain('<Reject');
  });

  it('hold under concurrency: of eight calls racing for a cap of three, exactly three get through', async () => {
    const { company, number } = await limitedOffer('state-limits-race');
    await createThrough(gateway, company, '/api/v1/state_call_limits', { state: 'CA', concurrent_limit: 3 });
    const rungs = await Promise.all(Array.from({ length: 8 }, (_, n) => ring(number.number, `+1415555016${n}`)));
    expect(rungs.filter((rung) => rung.callId !== undefined)).toHaveLength(3);
    expect(rungs.filter((rung) => rung.twiml.includes('<Reject'))).toHaveLength(5);
  });
});
