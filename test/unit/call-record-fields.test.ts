import { describe, expect, it } from 'vitest';
import { callDurations, connectedTo, hangupCause, reportingFields, tokenValues } from '../../shared/calls/call-record-fields.js';

const at = (seconds: number) => new Date(Date.UTC(2026, 10, 28, 12, 0, seconds)).toISOString();

/** A call that played a menu for 8 s, rang buyer 1 for 10 s unanswered, then buyer 2 for 4 s, talked 60 s. */
const finished = {
  id: 1,
  in_progress: false,
  status: 'completed',
  created_at: at(0),
  ended_at: at(82),
  number: '+18005550100',
  carrier: 'twilio',
  carrier_call_id: 'CA123',
  offer_converted: true,
  ring_pool_id: 7,
  data: { sub_id: 'abc', state: 'CA', nested: { a: 1 } },
  attempts: [
    { attempt: 1, buyer_id: 1, started_at: at(8), answered_at: null, answered_duration: null, status: 'no-answer' },
    { attempt: 2, buyer_id: 2, started_at: at(18), answered_at: at(22), answered_duration: 60, status: 'completed' },
  ],
  timeline: [
    { at: at(0), type: 'incoming' },
    { at: at(0), type: 'router', router_id: 3 },
    { at: at(8), type: 'dial', attempt: 1, number: '+12125550001' },
    { at: at(18), type: 'dial_ended', attempt: 1, outcome: 'no-answer' },
    { at: at(18), type: 'dial', attempt: 2, number: '+12125550002' },
    { at: at(22), type: 'answered', attempt: 2 },
    { at: at(82), type: 'ended', status: 'completed' },
  ],
};

describe('the call record as reporting clients read it', () => {
  it('derives ring, IVR, attempted and agent times from the attempts and the timeline', () => {
    expect(callDurations(finished)).toEqual({ ring_duration: 10 + 4, ivr_duration: 8, attempted_duration: 10 + 64, agent_duration: 0 });
  });

  it('counts an agent attempt\'s talk as agent time, and no menu as 0 s of IVR', () => {
    const agentCall = { ...finished, timeline: finished.timeline.filter((entry) => entry.type !== 'router'), attempts: [{ ...finished.attempts[1], agent_id: 5 }] };
    expect(callDurations(agentCall)).toMatchObject({ ivr_duration: 0, agent_duration: 60 });
  });

  it('leaves the times null while the call is live', () => {
    expect(callDurations({ ...finished, in_progress: true, ended_at: null })).toEqual({ ring_duration: null, ivr_duration: null, attempted_duration: null, agent_duration: null });
  });

  it('names the number the answered attempt was connected to, the tokens as key:value and why the call ended', () => {
    expect(connectedTo(finished)).toBe('+12125550002');
    expect(connectedTo({ ...finished, attempts: [finished.attempts[0]] })).toBeNull();
    expect(tokenValues(finished.data)).toEqual(['sub_id:abc', 'state:CA']);
    expect(hangupCause(finished)).toBe('completed');
    expect(hangupCause({ ...finished, timeline: [{ at: at(0), type: 'blocked', reason: 'caller is blacklisted' }] })).toBe('caller is blacklisted');
    expect(hangupCause({ ...finished, in_progress: true })).toBeNull();
  });

  it('serves every field, null where this service cannot know it', () => {
    const fields = reportingFields(finished, { user_buyer_id: 'B-1', user_traffic_source_id: null });
    expect(fields).toMatchObject({
      number_called: '+18005550100',
      sub_id: 'abc',
      ring_pool_id: 7,
      traffic_source_converted: true,
      call_sid: 'CA123',
      provider: 'twilio',
      user_buyer_id: 'B-1',
      user_traffic_source_id: null,
      hold_duration: null,
      provider_cost: null,
      trackdrive_cost: null,
      service_cost: null,
    });
  });
});
