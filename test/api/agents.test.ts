import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createTestCompany, type TestCompany } from '../fixtures/company.js';
import { midDayTomorrow, usePinnedClockForAll } from '../fixtures/clock.js';
import { expect404, expect422, recordOf } from '../fixtures/envelope.js';
import { call, useGateway } from '../fixtures/gateway.js';
import { asCompany } from '../fixtures/leads.js';
import { createThrough, listThrough } from '../fixtures/records.js';

/**
 * Agents and call centers (docs/resources.md, "Agents and call centers"): CRUD with validations
 * and company scoping, the agent's widget and the timestamps its status changes write, and the
 * `check_for_available_instant_agent` ping.
 */
const gateway = useGateway();
usePinnedClockForAll(midDayTomorrow);

const as = (company: TestCompany, method: string, path: string, json?: unknown) => asCompany(gateway, company, method, path, json);

async function world() {
  const company = await createTestCompany('agents');
  const offer = await createThrough(gateway, company, '/api/v1/offers', { name: 'Offer' });
  const center = await createThrough(gateway, company, '/api/v1/call_centers', { name: 'Desk', offer_ids: [offer.id] });
  const agent = await createThrough(gateway, company, '/api/v1/voice_agents', { name: 'Ann', number: '+12125550123', call_center_id: center.id });
  return { company, offer, center, agent };
}

describe('call centers, agent statuses and voice agents', () => {
  it('are created, validated, listed, updated and deleted; the agent gets its widget and loses it with itself', async () => {
    const { company, offer, center, agent } = await world();
    expect(center).toMatchObject({ type: 'CallCenter', name: 'Desk', offer_ids: [offer.id], enabled: true });
    expect(agent).toMatchObject({ type: 'VoiceAgent', name: 'Ann', number: '+12125550123', agent_type: 'number', call_center_id: center.id, enabled: true });
    const sip = await createThrough(gateway, company, '/api/v1/voice_agents', { name: 'Bob', number: 'sip:bob@pbx.example.com' });
    expect(sip.agent_type).toBe('sip');

    expect422(await as(company, 'POST', '/api/v1/voice_agents', { name: '', number: '12' }), {
      name: ["can't be blank"],
      number: ['is not a phone number in E.164 (+ and country code) or a sip: URI'],
    });
    expect422(await as(company, 'POST', '/api/v1/call_centers', { name: 'X', offer_ids: [999999] }), { offer_ids: ['does not exist: 999999'] });

    const paused = await createThrough(gateway, company, '/api/v1/agent_statuses', { key: 'lunch', name: 'Lunch', hint: 'Back soon', text_color: '#fff', background_color: '#a00', pause_agent: 'yes', agent_billable: false });
    expect(paused).toMatchObject({ type: 'AgentStatus', key: 'lunch', pause_agent: true, unpause_agent: false, agent_billable: false, schedule_action_group_id: null });
    expect422(await as(company, 'POST', '/api/v1/agent_statuses', { key: 'Bad Key', name: 'x', text_color: 'red', pause_agent: 'maybe' }), {
      key: ['must be lower-case letters, digits and underscores'],
      text_color: ['is not a colour like #1a2b3c'],
      pause_agent: ['is not a valid boolean (use 1, true, yes, on, 0, false, no or off)'],
    });
    expect422(await as(company, 'POST', '/api/v1/agent_statuses', { key: 'both', name: 'Both', pause_agent: true, unpause_agent: true }), { unpause_agent: ['cannot be set with pause_agent'] });
    expect((await as(company, 'POST', '/api/v1/agent_statuses', { key: 'lunch', name: 'Again' })).status).toBe(409);

    const updated = recordOf(await as(company, 'PUT', `/api/v1/voice_agents/${agent.id}`, { agent_status_id: paused.id, email: 'ann@example.com' }), 'voice_agent');
    expect(updated).toMatchObject({ agent_status_id: paused.id, email: 'ann@example.com', name: 'Ann' });
    expect((await listThrough(gateway, company, `/api/v1/voice_agents?call_center_id=${center.id}`, 'voice_agents')).map((row) => row.id)).toEqual([agent.id]);
    const csv = await as(company, 'GET', '/api/v1/voice_agents.csv');
    expect(csv.status).toBe(200);
    expect(csv.text).toContain('+12125550123');

    const widget = recordOf(await as(company, 'GET', `/api/v1/agent_widgets/${agent.id}`), 'agent_widget');
    expect(widget).toMatchObject({ id: agent.id, voice_agent_id: agent.id, call_center_id: center.id, system_status: 'offline' });
    expect((await as(company, 'DELETE', `/api/v1/voice_agents/${agent.id}`)).status).toBe(200);
    expect404(await as(company, 'GET', `/api/v1/voice_agents/${agent.id}`));
    expect404(await as(company, 'GET', `/api/v1/agent_widgets/${agent.id}`));
    // Widgets and timestamps are made by the service only.
    expect((await as(company, 'POST', '/api/v1/agent_widgets', {})).status).not.toBe(200);
    expect((await as(company, 'POST', '/api/v1/agent_timestamps', {})).status).not.toBe(200);
  });

  it("refuse another company's ids, as paths and as foreign keys", async () => {
    const { company, offer, center, agent } = await world();
    const other = await createTestCompany('agents-other');
    for (const path of [`/api/v1/call_centers/${center.id}`, `/api/v1/voice_agents/${agent.id}`, `/api/v1/agent_widgets/${agent.id}`]) {
      expect404(await as(other, 'GET', path));
    }
    expect404(await as(other, 'PUT', `/api/v1/agent_widgets/${agent.id}`, { system_status: 'available' }));
    expect422(await as(other, 'POST', '/api/v1/call_centers', { name: 'Theirs', offer_ids: [offer.id] }), { offer_ids: [`does not exist: ${offer.id}`] });
    expect422(await as(other, 'POST', '/api/v1/agent_messages', { voice_agent_id: agent.id, body: 'hello' }), { voice_agent_id: [`does not exist: ${agent.id}`] });
    expect(recordOf(await as(company, 'GET', `/api/v1/voice_agents/${agent.id}`), 'voice_agent').name).toBe('Ann');
  });
});

describe("an agent's fields, flows, keywords, schedules and messages", () => {
  it('are records of the agent, validated and scoped', async () => {
    const { company, offer, agent } = await world();
    const field = await createThrough(gateway, company, '/api/v1/voice_agent_fields', { name: 'Age', key: 'age', field_type: 'integer', voice_agent_id: agent.id, required: true });
    expect(field).toMatchObject({ type: 'VoiceAgentField', key: 'age', field_type: 'integer', required: true });
    expect422(await as(company, 'POST', '/api/v1/voice_agent_fields', { name: 'X', key: 'x', field_type: 'colour' }), { field_type: expect.any(Array) as never });

    const flow = await createThrough(gateway, company, '/api/v1/voice_agent_flows', { name: 'Intake', voice_agent_id: agent.id, offer_id: offer.id, script: 'Ask the age', voice_agent_field_ids: [field.id] });
    expect(flow).toMatchObject({ type: 'VoiceAgentFlow', voice_agent_field_ids: [field.id], enabled: true });
    const keyword = await createThrough(gateway, company, '/api/v1/voice_agent_keywords', { keyword: 'insurance', voice_agent_flow_id: flow.id });
    expect(keyword).toMatchObject({ type: 'VoiceAgentKeyword', keyword: 'insurance', voice_agent_flow_id: flow.id });
    expect422(await as(company, 'POST', '/api/v1/voice_agent_keywords', { keyword: '' }), { keyword: ["can't be blank"], voice_agent_flow_id: expect.any(Array) as never });

    const schedule = await createThrough(gateway, company, '/api/v1/schedules', { name: 'Follow-up' });
    const assigned = await createThrough(gateway, company, '/api/v1/schedule_agents', { schedule_id: schedule.id, voice_agent_id: agent.id, priority: 2 });
    expect(assigned).toMatchObject({ type: 'ScheduleAgent', schedule_id: schedule.id, voice_agent_id: agent.id, priority: 2, enabled: true });
    expect422(await as(company, 'POST', '/api/v1/schedule_agents', { schedule_id: schedule.id, voice_agent_id: 999999, priority: -1 }), { priority: ['must be greater than or equal to 0'] });

    const message = await createThrough(gateway, company, '/api/v1/agent_messages', { voice_agent_id: agent.id, subject: 'Hi', body: 'Call back Mr. Smith' });
    expect(message).toMatchObject({ type: 'AgentMessage', read: false, body: 'Call back Mr. Smith' });
    const read = recordOf(await as(company, 'PUT', `/api/v1/agent_messages/${message.id}`, { read: true }), 'agent_message');
    expect(read).toMatchObject({ read: true, body: 'Call back Mr. Smith' });
    // What the message said is not writable on update: it stays.
    expect(recordOf(await as(company, 'PUT', `/api/v1/agent_messages/${message.id}`, { body: 'changed' }), 'agent_message').body).toBe('Call back Mr. Smith');
    expect((await listThrough(gateway, company, `/api/v1/agent_messages?voice_agent_id=${agent.id}&read=true`, 'agent_messages')).map((row) => row.id)).toEqual([message.id]);

    const other = await createTestCompany('agents-other');
    expect422(await as(other, 'POST', '/api/v1/voice_agent_flows', { name: 'Theirs', voice_agent_id: agent.id }), { voice_agent_id: [`does not exist: ${agent.id}`] });
    expect404(await as(other, 'GET', `/api/v1/voice_agent_keywords/${keyword.id}`));
    expect((await as(company, 'DELETE', `/api/v1/voice_agent_keywords/${keyword.id}`)).status).toBe(200);
  });
});

describe('agent widgets and timestamps', () => {
  it('a change of system_status closes the open timestamp and opens one for the new status; the same status writes none', async () => {
    const { company, agent } = await world();
    expect422(await as(company, 'PUT', `/api/v1/agent_widgets/${agent.id}`, { system_status: 'dancing' }), { system_status: expect.any(Array) as never });
    const available = recordOf(await as(company, 'PUT', `/api/v1/agent_widgets/${agent.id}`, { system_status: 'available' }), 'agent_widget');
    expect(available).toMatchObject({ system_status: 'available', agent_timestamp_id: expect.any(Number) as never });
    let stamps = await listThrough(gateway, company, `/api/v1/agent_timestamps?voice_agent_id=${agent.id}`, 'agent_timestamps');
    expect(stamps).toHaveLength(1);
    expect(stamps[0]).toMatchObject({ id: available.agent_timestamp_id, key: 'available', voice_agent_id: agent.id, ended_at: null, duration: null });
    expect(stamps[0]!.inserted_at).toEqual(expect.any(String));

    await as(company, 'PUT', `/api/v1/agent_widgets/${agent.id}`, { system_status: 'available' });
    expect(await listThrough(gateway, company, '/api/v1/agent_timestamps', 'agent_timestamps')).toHaveLength(1);

    recordOf(await as(company, 'PUT', `/api/v1/agent_widgets/${agent.id}`, { system_status: 'away' }), 'agent_widget');
    stamps = await listThrough(gateway, company, '/api/v1/agent_timestamps?order=id', 'agent_timestamps');
    expect(stamps.map((stamp) => stamp.key)).toEqual(['available', 'away']);
    // The clock is pinned: the closed one lasted 0 seconds and ended when the next began.
    expect(stamps[0]).toMatchObject({ ended_at: stamps[1]!.inserted_at, duration: 0 });
    expect(recordOf(await as(company, 'GET', `/api/v1/agent_timestamps/${stamps[1]!.id}`), 'agent_timestamp')).toMatchObject({ key: 'away', ended_at: null });
    // Read only.
    expect((await as(company, 'PUT', `/api/v1/agent_timestamps/${stamps[1]!.id}`, { key: 'x' })).status).not.toBe(200);
    const other = await createTestCompany('agents-other');
    expect404(await as(other, 'GET', `/api/v1/agent_timestamps/${stamps[1]!.id}`));
  });
});

describe('check_for_available_instant_agent pings', () => {
  const vanity = () => `agents-${randomUUID().slice(0, 8)}`;
  const ping = (vanityUri: string) => call(gateway, { method: 'POST', path: `/api/v1/inbound_webhooks/ping/${vanityUri}` });

  it("answer whether the offer's call center has an available agent, not paused by its status", async () => {
    const { company, offer, center, agent } = await world();
    const webhook = await createThrough(gateway, company, '/api/v1/inbound_webhooks', { vanity_uri: vanity(), offer_id: offer.id, webhook_type: 'check_for_available_instant_agent' });

    let reply = await ping(webhook.vanity_uri);
    expect(reply.status, reply.text).toBe(200);
    expect(reply.body).toMatchObject({ success: false, available_agents_count: 0, agents: [], call_center_ids: [center.id], errors: ['No agent is available'] });

    await as(company, 'PUT', `/api/v1/agent_widgets/${agent.id}`, { system_status: 'available' });
    reply = await ping(webhook.vanity_uri);
    expect(reply.body).toMatchObject({ success: true, available_agents_count: 1, agents: [{ voice_agent_id: agent.id, name: 'Ann', call_center_id: center.id }], errors: [] });
    expect(reply.text).not.toContain('+12125550123');

    // A status that pauses the agent takes it out, whatever its widget says.
    const lunch = await createThrough(gateway, company, '/api/v1/agent_statuses', { key: 'lunch', name: 'Lunch', pause_agent: true });
    await as(company, 'PUT', `/api/v1/voice_agents/${agent.id}`, { agent_status_id: lunch.id });
    expect((await ping(webhook.vanity_uri)).body).toMatchObject({ success: false, available_agents_count: 0 });
    await as(company, 'PUT', `/api/v1/voice_agents/${agent.id}`, { agent_status_id: null });
    expect((await ping(webhook.vanity_uri)).body).toMatchObject({ success: true, available_agents_count: 1 });

    // No call center serving the offer: none.
    await as(company, 'PUT', `/api/v1/call_centers/${center.id}`, { offer_ids: [] });
    expect((await ping(webhook.vanity_uri)).body).toMatchObject({ success: false, call_center_ids: [], errors: ['No call center serves this offer'] });
  });

  it('say why not when the webhook has no offer or the caller is blacklisted', async () => {
    const { company, offer, agent } = await world();
    await as(company, 'PUT', `/api/v1/agent_widgets/${agent.id}`, { system_status: 'available' });
    const bare = await createThrough(gateway, company, '/api/v1/inbound_webhooks', { vanity_uri: vanity(), webhook_type: 'check_for_available_instant_agent' });
    expect((await ping(bare.vanity_uri)).body).toMatchObject({ success: false, available_agents_count: 0, errors: ['No offer is set on this webhook'] });

    const webhook = await createThrough(gateway, company, '/api/v1/inbound_webhooks', { vanity_uri: vanity(), offer_id: offer.id, webhook_type: 'check_for_available_instant_agent' });
    const caller = '+14155550199';
    expect((await call(gateway, { method: 'POST', path: `/api/v1/inbound_webhooks/ping/${webhook.vanity_uri}?caller_id=${encodeURIComponent(caller)}` })).body).toMatchObject({ success: true });
    expect((await as(company, 'POST', `/api/v1/contacts/${encodeURIComponent(caller)}/caller_block`)).status).toBe(200);
    expect((await call(gateway, { method: 'POST', path: `/api/v1/inbound_webhooks/ping/${webhook.vanity_uri}?caller_id=${encodeURIComponent(caller)}` })).body).toMatchObject({
      success: false,
      errors: ['The caller is blacklisted'],
    });
  });
});
