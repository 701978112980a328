import { defineView } from '../resources/define.js';
import * as routing from '../resources/routing/admin.js';

/** How the resources of agents-resource.ts are shown (their views); their write side stays there. Imports no schema. */

export const callCentersView = defineView({
  name: routing.callCenters.name,
  type: 'CallCenter',
  columns: ['company_id', 'name', 'description', 'offer_ids', 'time_zone', 'enabled'],
  foreignKeys: { offer_ids: { resource: 'offers' } },
});

export const agentStatusesView = defineView({
  name: routing.agentStatuses.name,
  type: 'AgentStatus',
  columns: ['company_id', 'key', 'name', 'hint', 'text_color', 'background_color', 'pause_agent', 'unpause_agent', 'agent_billable', 'schedule_action_group_id'],
  foreignKeys: { schedule_action_group_id: { resource: 'schedule_action_groups' } },
});

export const voiceAgentsView = defineView({
  name: routing.voiceAgents.name,
  type: 'VoiceAgent',
  columns: ['company_id', 'name', 'number', 'agent_type', 'call_center_id', 'agent_status_id', 'email', 'description', 'enabled'],
  derive: (record) => ({ agent_type: typeof record.number === 'string' ? (record.number.toLowerCase().startsWith('sip:') ? 'sip' : 'number') : null }),
  foreignKeys: { call_center_id: { resource: 'call_centers', association: 'call_center' }, agent_status_id: { resource: 'agent_statuses' } },
});

export const voiceAgentFieldsView = defineView({
  name: routing.voiceAgentFields.name,
  type: 'VoiceAgentField',
  columns: ['company_id', 'name', 'key', 'field_type', 'voice_agent_id', 'required', 'prompt'],
  foreignKeys: { voice_agent_id: { resource: 'voice_agents' } },
});

export const voiceAgentFlowsView = defineView({
  name: routing.voiceAgentFlows.name,
  type: 'VoiceAgentFlow',
  columns: ['company_id', 'name', 'voice_agent_id', 'offer_id', 'script', 'voice_agent_field_ids', 'enabled'],
  foreignKeys: { voice_agent_id: { resource: 'voice_agents' }, offer_id: { resource: 'offers', association: 'offer' }, voice_agent_field_ids: { resource: 'voice_agent_fields' } },
});

export const voiceAgentKeywordsView = defineView({
  name: routing.voiceAgentKeywords.name,
  type: 'VoiceAgentKeyword',
  columns: ['company_id', 'keyword', 'voice_agent_flow_id', 'voice_agent_id'],
  foreignKeys: { voice_agent_flow_id: { resource: 'voice_agent_flows' }, voice_agent_id: { resource: 'voice_agents' } },
});

export const scheduleAgentsView = defineView({
  name: routing.scheduleAgents.name,
  type: 'ScheduleAgent',
  columns: ['company_id', 'schedule_id', 'voice_agent_id', 'priority', 'enabled'],
  foreignKeys: { schedule_id: { resource: 'schedules', association: 'schedule' }, voice_agent_id: { resource: 'voice_agents', association: 'voice_agent' } },
});

export const agentMessagesView = defineView({
  name: routing.agentMessages.name,
  type: 'AgentMessage',
  columns: ['company_id', 'voice_agent_id', 'user_id', 'subject', 'body', 'read'],
  foreignKeys: { voice_agent_id: { resource: 'voice_agents' } },
});

export const agentWidgetsView = defineView({
  name: routing.agentWidgets.name,
  type: 'AgentWidget',
  // call_id: the call the agent is on while the call engine holds it (`on_call`), else null.
  columns: ['company_id', 'voice_agent_id', 'call_center_id', 'system_status', 'system_status_changed_at', 'agent_timestamp_id', 'call_id'],
});

export const agentTimestampsView = defineView({
  name: routing.agentTimestamps.name,
  type: 'AgentTimestamp',
  columns: [
    'key',
    'key_color',
    'call_id',
    'call_id_color',
    'company_id',
    'collaborator_id',
    'duration',
    'inserted_at',
    'off_hook_lead_call_id',
    'lead_id',
    'call_uuid',
    'off_hook_lead_call_uuid',
    'agent_duration',
    'call_total_duration',
    'billable_duration',
    'unbillable_duration',
    'ended_at',
    'voice_agent_id',
  ],
});
