import { describe, expect, it } from 'vitest';
import { AGENT_RING_SECONDS, agentAttempt, agentDialTarget } from '../../shared/agents/agent-calls.js';
import { closingFields, openedTimestamp } from '../../shared/agents/agent-timestamps.js';
import { isAgentAvailable, offerOrder } from '../../shared/agents/availability.js';
import { offerMembership, servingCenterIds } from '../../shared/agents/call-center-effects.js';

/** Which agents can be offered a call and in what order (shared/agents/*), from plain records. */
describe('isAgentAvailable', () => {
  const agent = { id: 1, enabled: true };
  it('needs the widget to say available', () => {
    expect(isAgentAvailable({ agent, widget: { system_status: 'available' } })).toBe(true);
    for (const system_status of ['offline', 'on_call', 'wrap_up', 'away']) expect(isAgentAvailable({ agent, widget: { system_status } })).toBe(false);
    expect(isAgentAvailable({ agent })).toBe(false);
  });
  it('is taken out by a status that pauses, or by the agent being disabled', () => {
    const widget = { system_status: 'available' };
    expect(isAgentAvailable({ agent, widget, status: { pause_agent: true } })).toBe(false);
    expect(isAgentAvailable({ agent, widget, status: { pause_agent: false, unpause_agent: true } })).toBe(true);
    expect(isAgentAvailable({ agent: { ...agent, enabled: false }, widget })).toBe(false);
  });
});

describe('offerOrder', () => {
  const available = (id: number, since: string | null) => ({ agent: { id }, widget: { system_status: 'available', system_status_changed_at: since } });
  it('offers calls to the longest idle available agent first, ties by id, and leaves out the others', () => {
    const ordered = offerOrder([
      available(1, '2026-01-01T10:05:00.000Z'),
      available(2, '2026-01-01T10:00:00.000Z'),
      { agent: { id: 3 }, widget: { system_status: 'on_call', system_status_changed_at: '2026-01-01T09:00:00.000Z' } },
      available(4, '2026-01-01T10:00:00.000Z'),
      { ...available(5, '2026-01-01T08:00:00.000Z'), status: { pause_agent: true } },
    ]);
    expect(ordered.map(({ agent }) => agent.id)).toEqual([2, 4, 1]);
  });
  it('puts an agent without a known change time first (it has waited at least as long)', () => {
    expect(offerOrder([available(1, '2026-01-01T10:00:00.000Z'), available(2, null)]).map(({ agent }) => agent.id)).toEqual([2, 1]);
  });
});

describe("an offer's serving call centers", () => {
  it('change for every offer a center lists or listed: served while the center is enabled and lists it', () => {
    expect([...offerMembership(undefined, { id: 1, offer_ids: [5, 6], enabled: true })]).toEqual([
      [5, true],
      [6, true],
    ]);
    expect([...offerMembership({ offer_ids: [5, 6], enabled: true }, { offer_ids: [6, 7], enabled: true })]).toEqual([
      [5, false],
      [6, true],
      [7, true],
    ]);
    expect([...offerMembership({ offer_ids: [5] }, { offer_ids: [5], enabled: false })]).toEqual([[5, false]]);
    expect([...offerMembership({ offer_ids: [5] }, undefined)]).toEqual([[5, false]]);
  });
  it('are read from the stored number set (or list) on the offer, sorted; none when absent', () => {
    expect(servingCenterIds({ agent_call_center_ids: new Set([9, 3]) })).toEqual([3, 9]);
    expect(servingCenterIds({ agent_call_center_ids: [4] })).toEqual([4]);
    expect(servingCenterIds({})).toEqual([]);
    expect(servingCenterIds(undefined)).toEqual([]);
  });
});

describe("an agent's dial", () => {
  const call = { id: 77, uuid: 'u-1', secure_token: 'secret', caller_number: '+14155552671' };
  it('rings the agent at its number or SIP address, showing the caller, for a bounded time', () => {
    expect(agentDialTarget({ id: 3, name: 'Ann', number: 'sip:ann@pbx.example.com' }, call)).toEqual({
      buyerId: null,
      agentId: 3,
      name: 'Ann',
      number: 'sip:ann@pbx.example.com',
      timeoutSeconds: AGENT_RING_SECONDS,
      dtmfTones: null,
      pressOneToAccept: false,
      callerId: '+14155552671',
      uuid: 'u-1',
      secureToken: 'secret',
    });
    expect(agentAttempt(1, { id: 3 }, new Date('2026-01-01T10:00:00.000Z'))).toMatchObject({ attempt: 1, buyer_id: null, agent_id: 3, status: 'ringing', released: false });
  });
});

describe('agent timestamps', () => {
  it('open with the call they are about and close with its durations', () => {
    const at = new Date('2026-01-01T10:00:00.000Z');
    expect(openedTimestamp(5, 'on_call', 3, at, { call: { id: 77, uuid: 'u-1', leadId: 9 } })).toMatchObject({ id: 5, key: 'on_call', call_id: 77, call_uuid: 'u-1', lead_id: 9, voice_agent_id: 3, ended_at: null });
    const later = new Date('2026-01-01T10:02:00.000Z');
    expect(closingFields({ inserted_at: at.toISOString() }, later)).toEqual({ ended_at: later.toISOString(), duration: 120, agent_duration: 120, updated_at: later.toISOString() });
    expect(closingFields({ inserted_at: at.toISOString() }, later, 90)).toMatchObject({ duration: 120, call_total_duration: 120, billable_duration: 90, unbillable_duration: 30 });
    // The carrier's talk time counts even when the clock saw less of the call.
    expect(closingFields({ inserted_at: at.toISOString() }, at, 90)).toMatchObject({ duration: 0, call_total_duration: 90, billable_duration: 90, unbillable_duration: 0 });
  });
});
