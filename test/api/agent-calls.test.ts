import { afterEach, describe, expect, it, vi } from 'vitest';
import { claimAgent, releaseAgent } from '../../shared/agents/agent-claims.js';
import { agentCandidates } from '../../shared/agents/availability.js';
import { getCall } from '../../shared/calls/call-store.js';
import { sweepStaleCalls } from '../../shared/calls/stale-call-sweeper.js';
import { STALE_AFTER_SECONDS } from '../../shared/calls/stale-calls.js';
import { db } from '../../shared/db/client.js';
import { simulateCall, type BuyerBehaviour } from '../../shared/local/call-simulator.js';
import { midDayTomorrow, usePinnedClock } from '../fixtures/clock.js';
import { createTestCompany, type TestCompany } from '../fixtures/company.js';
import { recordOf } from '../fixtures/envelope.js';
import { useGateway } from '../fixtures/gateway.js';
import { asCompany } from '../fixtures/leads.js';
import { createThrough, listThrough } from '../fixtures/records.js';
import { callFields, carrierPost, dialOf, idsOf, newCallSid, VOICE_BASE, VOICE_TOKEN } from '../fixtures/voice.js';

/**
 * Agents as routing targets of inbound calls (docs/resources.md, "Agents and call centers"),
 * through the HTTP API and the simulated carrier: the offer's call center agents ring first
 * (claimed one call at a time), buyers after; agents are released when their part of the call ends.
 */
const gateway = useGateway();
usePinnedClock(midDayTomorrow);

const BUYER = '+12125556100';
const ANN = '+12125556201';
const BOB = '+12125556202';
const CAROL = 'sip:carol@pbx.example.com';
const CALLER = '+14155552671';

const as = (company: TestCompany, method: string, path: string, json?: unknown) => asCompany(gateway, company, method, path, json);

/** A company whose offer has one buyer and a call center with the given agents (all offline). */
async function world(agentNumbers: string[] = [ANN], options: { center?: boolean } = {}) {
  const company = await createTestCompany('agent-calls');
  const buyer = await createThrough(gateway, company, '/api/v1/buyers', { name: 'Buyer', number: BUYER });
  const offer = await createThrough(gateway, company, '/api/v1/offers', { name: 'Offer', buyer_ids: [buyer.id] });
  const center = options.center === false ? undefined : await createThrough(gateway, company, '/api/v1/call_centers', { name: 'Desk', offer_ids: [offer.id] });
  const agents = [];
  for (const [index, number] of agentNumbers.entries()) {
    agents.push(await createThrough(gateway, company, '/api/v1/voice_agents', { name: `Agent ${index + 1}`, number, call_center_id: center?.id }));
  }
  const number = (await createThrough(gateway, company, '/api/v1/phone_numbers', { offer_id: offer.id })).number as string;
  return { company, buyer, offer, center, agents, number };
}

async function setStatus(company: TestCompany, agentId: number, system_status: string) {
  const reply = await as(company, 'PUT', `/api/v1/agent_widgets/${agentId}`, { system_status });
  expect(reply.status, reply.text).toBe(200);
}

async function widget(company: TestCompany, agentId: number): Promise<Record<string, any>> {
  return recordOf(await as(company, 'GET', `/api/v1/agent_widgets/${agentId}`), 'agent_widget');
}

async function shownCall(company: TestCompany, callId: number): Promise<Record<string, any>> {
  return recordOf(await as(company, 'GET', `/api/v1/calls/${callId}`), 'call');
}

const simulate = (to: string, buyers: BuyerBehaviour[]) => simulateCall({ baseUrl: gateway.baseUrl, authToken: VOICE_TOKEN, from: CALLER, to, buyers, callSid: newCallSid() });
const answers = (talk: number): BuyerBehaviour => ({ answer: true, answerAfter: 3, talk });
const noAnswer: BuyerBehaviour = { answer: false, answerAfter: 30, talk: 0 };

describe('an inbound call on an offer served by a call center', () => {
  it("rings the available agent first; the call shows the agent, the agent's timestamps the call, and the agent is available again after", async () => {
    const { company, agents, number } = await world([ANN]);
    const ann = agents[0]!;
    await setStatus(company, ann.id, 'available');

    const result = await simulate(number, [answers(75)]);
    expect(result.outcome).toBe('completed');
    expect(result.dialed).toEqual([ANN]);
    // Agents ring for a bounded time, showing the caller's own number.
    expect(result.steps[0]!.response).toMatch(/<Dial [^>]*timeout="20"[^>]*callerId="\+14155552671"/);

    const shown = await shownCall(company, result.callId!);
    expect(shown).toMatchObject({ status: 'completed', agent_id: ann.id, agent: 'Agent 1', buyer_id: null, buyer: null, answered_duration: 75, buyer_converted: false });
    const stored = (await getCall(company.id, result.callId!)) as Record<string, any>;
    expect(stored.attempts).toEqual([expect.objectContaining({ attempt: 1, agent_id: ann.id, buyer_id: null, status: 'completed', released: true })]);
    expect(stored.timeline.map((entry: { type: string }) => entry.type)).toEqual(['incoming', 'agent_routing', 'dial', 'answered', 'dial_ended', 'ended']);
    expect(stored.timeline[1]).toMatchObject({ chosen: ann.id, available: [ann.id], taken: [] });
    expect(stored.timeline[2]).toMatchObject({ attempt: 1, agent_id: ann.id, number: ANN });

    expect(await widget(company, ann.id)).toMatchObject({ system_status: 'available', call_id: null });
    const stamps = await listThrough(gateway, company, `/api/v1/agent_timestamps?voice_agent_id=${ann.id}&order=id`, 'agent_timestamps');
    expect(stamps.map((stamp) => stamp.key)).toEqual(['available', 'on_call', 'available']);
    expect(stamps[0]!.ended_at).toEqual(stamps[1]!.inserted_at);
    expect(stamps[1]).toMatchObject({ call_id: result.callId, call_uuid: stored.uuid, billable_duration: 75, ended_at: stamps[2]!.inserted_at });
    expect(stamps[2]).toMatchObject({ call_id: null, ended_at: null });
  });

  it('rings a SIP agent at its address; a retried incoming webhook gets the same dial and claims nothing more', async () => {
    const { company, agents, number } = await world([CAROL]);
    await setStatus(company, agents[0]!.id, 'available');
    const sid = newCallSid();
    const first = await carrierPost(gateway, `${VOICE_BASE}/incoming`, { ...callFields(sid, CALLER, number), CallStatus: 'ringing' });
    const dial = dialOf(first.text)!;
    expect(dial).toMatchObject({ leg: 'Sip' });
    expect(dial.target.startsWith(`${CAROL}?X-svc_secure_token=`)).toBe(true);
    const again = await carrierPost(gateway, `${VOICE_BASE}/incoming`, { ...callFields(sid, CALLER, number), CallStatus: 'ringing' });
    expect(dialOf(again.text)).toEqual(dial);
    expect(await widget(company, agents[0]!.id)).toMatchObject({ system_status: 'on_call', call_id: idsOf(dial.action).callId });
    expect((await listThrough(gateway, company, '/api/v1/agent_timestamps', 'agent_timestamps')).map((stamp) => stamp.key).sort()).toEqual(['available', 'on_call']);
  });

  it('skips agents who are not available, paused by their status or disabled, and centers that are disabled', async () => {
    const { company, offer, center, agents, number } = await world([ANN, BOB, CAROL]);
    const [ann, bob, carol] = agents as [Record<string, any>, Record<string, any>, Record<string, any>];
    const lunch = await createThrough(gateway, company, '/api/v1/agent_statuses', { key: 'lunch', name: 'Lunch', pause_agent: true });
    await setStatus(company, ann.id, 'away');
    await setStatus(company, bob.id, 'available');
    await setStatus(company, carol.id, 'available');
    expect((await as(company, 'PUT', `/api/v1/voice_agents/${bob.id}`, { agent_status_id: lunch.id })).status).toBe(200);
    const toCarol = (await simulate(number, [answers(10)])).dialed;
    expect(toCarol).toHaveLength(1);
    expect(toCarol[0]!.startsWith(`${CAROL}?`)).toBe(true);

    // Carol disabled: nobody left, the buyer takes it without an agent attempt.
    expect((await as(company, 'PUT', `/api/v1/voice_agents/${carol.id}`, { enabled: false })).status).toBe(200);
    const toBuyer = await simulate(number, [answers(10)]);
    expect(toBuyer.dialed).toEqual([BUYER]);
    expect(await shownCall(company, toBuyer.callId!)).toMatchObject({ agent_id: null, buyer: 'Buyer' });

    // Bob unpaused but his center disabled: still the buyer.
    expect((await as(company, 'PUT', `/api/v1/voice_agents/${bob.id}`, { agent_status_id: null })).status).toBe(200);
    expect((await as(company, 'PUT', `/api/v1/call_centers/${center!.id}`, { enabled: false })).status).toBe(200);
    expect((await simulate(number, [answers(10)])).dialed).toEqual([BUYER]);
    expect((await as(company, 'PUT', `/api/v1/call_centers/${center!.id}`, { enabled: true })).status).toBe(200);
    expect((await simulate(number, [answers(10)])).dialed).toEqual([BOB]);
    // The offer taken off the center: the buyer again.
    expect((await as(company, 'PUT', `/api/v1/call_centers/${center!.id}`, { offer_ids: [] })).status).toBe(200);
    expect((await simulate(number, [answers(10)])).dialed).toEqual([BUYER]);
    // Listed again, then deleted: the buyer once the center is gone.
    expect((await as(company, 'PUT', `/api/v1/call_centers/${center!.id}`, { offer_ids: [offer.id] })).status).toBe(200);
    expect((await simulate(number, [answers(10)])).dialed).toEqual([BOB]);
    expect((await as(company, 'DELETE', `/api/v1/call_centers/${center!.id}`)).status).toBe(200);
    expect((await simulate(number, [answers(10)])).dialed).toEqual([BUYER]);
  });

  it('offers calls to the longest idle agent first', async () => {
    const { company, agents, number } = await world([ANN, BOB]);
    const [ann, bob] = agents as [Record<string, any>, Record<string, any>];
    await setStatus(company, bob.id, 'available');
    await setStatus(company, ann.id, 'available');
    // Bob has waited longest, then Ann; Bob is available again after his call, behind Ann.
    expect((await simulate(number, [answers(10)])).dialed).toEqual([BOB]);
    expect((await simulate(number, [answers(10)])).dialed).toEqual([ANN]);
    expect((await simulate(number, [answers(10)])).dialed).toEqual([BOB]);
  });

  it('falls through to the buyers when the agent does not answer, and releases the agent', async () => {
    const { company, buyer, agents, number } = await world([ANN]);
    const ann = agents[0]!;
    await setStatus(company, ann.id, 'available');
    const result = await simulate(number, [noAnswer, answers(40)]);
    expect(result.dialed).toEqual([ANN, BUYER]);
    expect(result.outcome).toBe('completed');
    const shown = await shownCall(company, result.callId!);
    expect(shown).toMatchObject({ status: 'completed', buyer_id: buyer.id, agent_id: null, answered_duration: 40 });
    const stored = (await getCall(company.id, result.callId!)) as Record<string, any>;
    expect(stored.attempts).toEqual([
      expect.objectContaining({ attempt: 1, agent_id: ann.id, status: 'no-answer', released: true }),
      expect.objectContaining({ attempt: 2, buyer_id: buyer.id, status: 'completed', released: true }),
    ]);
    expect(await widget(company, ann.id)).toMatchObject({ system_status: 'available', call_id: null });
    const stamps = await listThrough(gateway, company, `/api/v1/agent_timestamps?voice_agent_id=${ann.id}&order=id`, 'agent_timestamps');
    expect(stamps.map((stamp) => stamp.key)).toEqual(['available', 'on_call', 'available']);
    expect(stamps[1]).toMatchObject({ call_id: result.callId, billable_duration: 0 });

    // An agent who does not answer with no buyer behind: the call ends unanswered, the agent is released.
    expect((await as(company, 'PUT', `/api/v1/offers/${shown.offer_id}`, { buyer_ids: [] })).status).toBe(200);
    const alone = await simulate(number, [noAnswer]);
    expect(alone.dialed).toEqual([ANN]);
    expect(await shownCall(company, alone.callId!)).toMatchObject({ status: 'no_answer', agent_id: ann.id });
    expect(await widget(company, ann.id)).toMatchObject({ system_status: 'available', call_id: null });
  });
});

describe('an agent takes one call at a time', () => {
  it('two concurrent calls with one available agent: exactly one rings the agent, the other the buyer', async () => {
    const { company, agents, number } = await world([ANN]);
    const ann = agents[0]!;
    await setStatus(company, ann.id, 'available');
    const sids = [newCallSid(), newCallSid()];
    const callers = ['+14155550101', '+14155550102'];
    const replies = await Promise.all(sids.map((sid, index) => carrierPost(gateway, `${VOICE_BASE}/incoming`, { ...callFields(sid, callers[index]!, number), CallStatus: 'ringing' })));
    const dials = replies.map((reply) => dialOf(reply.text)!);
    expect(dials.map((dial) => dial.target).sort()).toEqual([BUYER, ANN].sort());
    const agentIndex = dials.findIndex((dial) => dial.target === ANN);
    const agentCall = idsOf(dials[agentIndex]!.action).callId;
    expect(await widget(company, ann.id)).toMatchObject({ system_status: 'on_call', call_id: agentCall });

    // While the agent talks, a third call goes to the buyer.
    const third = await simulate(number, [answers(5)]);
    expect(third.dialed).toEqual([BUYER]);

    // The agent's call ends (dial_action, then the caller's status), reported twice: released once.
    const leg = callFields(sids[agentIndex]!, callers[agentIndex]!, number);
    await carrierPost(gateway, dials[agentIndex]!.statusCallback!, { ...leg, CallSid: `${sids[agentIndex]}-leg1`, CallStatus: 'in-progress' });
    for (let repeat = 0; repeat < 2; repeat++) {
      await carrierPost(gateway, dials[agentIndex]!.action, { ...leg, CallStatus: 'in-progress', DialCallStatus: 'completed', DialCallDuration: '30' });
      await carrierPost(gateway, `${VOICE_BASE}/status`, { ...leg, CallStatus: 'completed', CallDuration: '33' });
    }
    expect(await widget(company, ann.id)).toMatchObject({ system_status: 'available', call_id: null });
    const stamps = await listThrough(gateway, company, `/api/v1/agent_timestamps?voice_agent_id=${ann.id}&order=id`, 'agent_timestamps');
    expect(stamps.map((stamp) => stamp.key)).toEqual(['available', 'on_call', 'available']);
    expect(await shownCall(company, agentCall)).toMatchObject({ status: 'completed', agent_id: ann.id, answered_duration: 30 });
    expect((await simulate(number, [answers(5)])).dialed).toEqual([ANN]);
  });

  it('claims are conditional: of two claims racing on the same read of an available agent, exactly one wins; a release is done once', async () => {
    const { company, center, agents } = await world([ANN]);
    const ann = agents[0]!;
    await setStatus(company, ann.id, 'available');
    const [candidate] = await agentCandidates(company.id, [center!.id]);
    const at = new Date();
    const won = await Promise.all([101, 102, 103].map((id) => claimAgent(company.id, candidate!, { id, uuid: `u-${id}`, leadId: null }, at)));
    expect(won.filter(Boolean)).toHaveLength(1);
    const holder = [101, 102, 103][won.indexOf(true)]!;
    expect(await widget(company, ann.id)).toMatchObject({ system_status: 'on_call', call_id: holder });
    // Another call cannot release it; its own call does, once.
    expect(await releaseAgent(company.id, ann.id, holder === 101 ? 102 : 101, at, 0)).toBe(false);
    expect((await Promise.all([releaseAgent(company.id, ann.id, holder, at, 5), releaseAgent(company.id, ann.id, holder, at, 5)])).filter(Boolean)).toHaveLength(1);
    expect(await widget(company, ann.id)).toMatchObject({ system_status: 'available', call_id: null });
    const stamps = await listThrough(gateway, company, `/api/v1/agent_timestamps?voice_agent_id=${ann.id}&order=id`, 'agent_timestamps');
    expect(stamps.map((stamp) => stamp.key)).toEqual(['available', 'on_call', 'available']);
    expect(stamps[1]).toMatchObject({ call_id: holder, billable_duration: 5 });
  });

  it('a call whose final callbacks were lost releases its agent when the stale-call sweeper ends it', async () => {
    const { company, agents, number } = await world([ANN]);
    const ann = agents[0]!;
    await setStatus(company, ann.id, 'available');
    const sid = newCallSid();
    const dial = dialOf((await carrierPost(gateway, `${VOICE_BASE}/incoming`, { ...callFields(sid, CALLER, number), CallStatus: 'ringing' })).text)!;
    expect(dial.target).toBe(ANN);
    await carrierPost(gateway, dial.statusCallback!, { ...callFields(`${sid}-leg1`, CALLER, number), CallStatus: 'in-progress' });
    const { callId } = idsOf(dial.action);
    expect(await widget(company, ann.id)).toMatchObject({ system_status: 'on_call', call_id: callId });

    const live = (await getCall(company.id, callId)) as Record<string, any>;
    const now = new Date(Date.parse(live.created_at) + (STALE_AFTER_SECONDS + 60) * 1000);
    expect(await sweepStaleCalls(now, [company.id])).toEqual({ companies: 1, ended: [{ companyId: company.id, callId }] });
    expect(await widget(company, ann.id)).toMatchObject({ system_status: 'available', call_id: null });
    expect(await shownCall(company, callId)).toMatchObject({ status: 'completed', agent_id: ann.id });
    // The late final callback changes nothing more.
    await carrierPost(gateway, `${VOICE_BASE}/status`, { ...callFields(sid, CALLER, number), CallStatus: 'completed', CallDuration: '100' });
    expect((await listThrough(gateway, company, `/api/v1/agent_timestamps?voice_agent_id=${ann.id}`, 'agent_timestamps')).map((stamp) => stamp.key).sort()).toEqual(['available', 'available', 'on_call']);
  });

  it('an agent who set another status during the call keeps it when the call ends', async () => {
    const { company, agents, number } = await world([ANN]);
    const ann = agents[0]!;
    await setStatus(company, ann.id, 'available');
    const sid = newCallSid();
    const dial = dialOf((await carrierPost(gateway, `${VOICE_BASE}/incoming`, { ...callFields(sid, CALLER, number), CallStatus: 'ringing' })).text)!;
    await setStatus(company, ann.id, 'wrap_up');
    expect(await widget(company, ann.id)).toMatchObject({ system_status: 'wrap_up', call_id: null });
    await carrierPost(gateway, dial.action, { ...callFields(sid, CALLER, number), CallStatus: 'in-progress', DialCallStatus: 'completed', DialCallDuration: '12' });
    await carrierPost(gateway, `${VOICE_BASE}/status`, { ...callFields(sid, CALLER, number), CallStatus: 'completed', CallDuration: '15' });
    expect(await widget(company, ann.id)).toMatchObject({ system_status: 'wrap_up' });
  });
});

describe('company scoping and cost', () => {
  afterEach(() => vi.restoreAllMocks());

  it("never uses another company's agents", async () => {
    const mine = await world([ANN], { center: false });
    const theirs = await world([BOB]);
    await setStatus(theirs.company, theirs.agents[0]!.id, 'available');
    // My agent has no center; theirs serves their own offer only.
    await setStatus(mine.company, mine.agents[0]!.id, 'available');
    expect((await simulate(mine.number, [answers(5)])).dialed).toEqual([BUYER]);
    expect((await simulate(theirs.number, [answers(5)])).dialed).toEqual([BOB]);
    expect(await widget(mine.company, mine.agents[0]!.id)).toMatchObject({ system_status: 'available' });
  });

  it('a call on an offer without call centers reads no agent, widget or call center', async () => {
    const { number } = await world([ANN], { center: false });
    const send = vi.spyOn(db, 'send');
    const result = await simulate(number, [answers(5)]);
    expect(result.dialed).toEqual([BUYER]);
    const touched = send.mock.calls.map(([command]) => JSON.stringify((command as { input: unknown }).input));
    expect(touched.length).toBeGreaterThan(0);
    expect(touched.filter((input) => /voice_agents|agent_widgets|call_centers|agent_statuses/.test(input))).toEqual([]);
  });
});
