import * as v from 'valibot';
import { keys } from '../db/keys.js';
import { blankable, booleanParam, idParam, integerParam, oneOf, presentString } from '../http/param-schemas.js';
import { phoneOrSipParam } from '../resources/phone-or-sip-param.js';
import { defineResource } from '../resources/define.js';
import { idListParam, optionalId } from '../resources/field-schemas.js';
import * as routing from '../resources/routing/admin.js';
import { callCentersView, agentStatusesView, voiceAgentsView, voiceAgentFieldsView, voiceAgentFlowsView, voiceAgentKeywordsView, scheduleAgentsView, agentMessagesView, agentWidgetsView, agentTimestampsView } from './agents-view.js';

/**
 * Agents and call centers (docs/resources.md, "Agents and call centers"):
 * - call_centers: a team of agents serving offers (`offer_ids`): the offers' inbound calls ring
 *   their available agents before their buyers (shared/agents/agent-calls.ts); the ping type
 *   `check_for_available_instant_agent` asks whether one of the offer's centers has an available agent.
 * - voice_agents: an agent, reached at a phone number or SIP address like a buyer, in a call center.
 *   Each agent has one agent_widget (same id), made with it and deleted with it.
 * - agent_widgets (show, update): the agent's live state, `system_status`; a change of it writes an
 *   agent_timestamp (shared/agents/agent-effects.ts).
 * - agent_statuses: the statuses an agent may pick (the reference's writable fields); a status with
 *   `pause_agent` makes its agents unavailable.
 * - agent_timestamps (list, show): written by the service only.
 * - voice_agent_fields, voice_agent_flows, voice_agent_keywords, schedule_agents, agent_messages:
 *   an agent's script fields, flows, keywords, schedule assignments and messages; records only.
 */

const bounded = (max: number) => v.pipe(v.string('is not a string'), v.trim(), v.maxLength(max, `is too long (maximum is ${max} characters)`));
const optionalBounded = (max: number) => v.optional(blankable(bounded(max)));
const name = v.pipe(presentString, v.maxLength(100, 'is too long (maximum is 100 characters)'));
const flag = v.optional(booleanParam);
const idList = v.optional(v.pipe(idListParam, v.transform((ids) => ids ?? [])));
const color = v.optional(blankable(v.pipe(v.string('is not a string'), v.trim(), v.regex(/^#(?:[0-9a-fA-F]{3}){1,2}$/, 'is not a colour like #1a2b3c'))));
const machineKey = v.pipe(bounded(64), v.regex(/^[a-z0-9_]+$/, 'must be lower-case letters, digits and underscores'));
const priority = v.optional(v.pipe(integerParam, v.minValue(0, 'must be greater than or equal to 0'), v.maxValue(1_000_000, 'must be less than or equal to 1000000')));
const NAME_ORDER = { values: ['id', 'name', 'created_at', 'updated_at'] as [string, ...string[]], default: 'id' };

export const callCenters = defineResource({
  ...routing.callCenters,
  ...callCentersView,
  root: 'call_center',
  plural: 'call_centers',
  createSchema: v.object({ name, description: optionalBounded(1000), offer_ids: idList, time_zone: optionalBounded(64), enabled: flag }),
  updateSchema: v.object({ name: v.optional(name), description: optionalBounded(1000), offer_ids: idList, time_zone: optionalBounded(64), enabled: flag }),
  defaults: { name: null, description: null, offer_ids: [], time_zone: null, enabled: true },
  order: NAME_ORDER,
  fulltextFields: ['name', 'description'],
  behaviour: () => import('./call-center-effects.js').then((effects) => effects.callCenterBehaviour),
});

export const agentStatuses = defineResource({
  ...routing.agentStatuses,
  ...agentStatusesView,
  root: 'agent_status',
  plural: 'agent_statuses',
  createSchema: v.object({
    key: machineKey,
    name,
    hint: optionalBounded(500),
    text_color: color,
    background_color: color,
    pause_agent: flag,
    unpause_agent: flag,
    agent_billable: flag,
    schedule_action_group_id: optionalId,
  }),
  updateSchema: v.object({
    key: v.optional(machineKey),
    name: v.optional(name),
    hint: optionalBounded(500),
    text_color: color,
    background_color: color,
    pause_agent: flag,
    unpause_agent: flag,
    agent_billable: flag,
    schedule_action_group_id: optionalId,
  }),
  defaults: { key: null, name: null, hint: null, text_color: null, background_color: null, pause_agent: false, unpause_agent: false, agent_billable: false, schedule_action_group_id: null },
  order: { values: ['id', 'name', 'key', 'created_at', 'updated_at'], default: 'id' },
  fulltextFields: ['name', 'key', 'hint'],
  unique: [{ field: 'key', scope: 'company' }],
  check: (record): Record<string, string[]> => (record.pause_agent === true && record.unpause_agent === true ? { unpause_agent: ['cannot be set with pause_agent'] } : {}),
});

const agentFields = {
  call_center_id: optionalId,
  agent_status_id: optionalId,
  email: optionalBounded(254),
  description: optionalBounded(1000),
  enabled: flag,
};

export const voiceAgents = defineResource({
  ...routing.voiceAgents,
  ...voiceAgentsView,
  root: 'voice_agent',
  plural: 'voice_agents',
  createSchema: v.object({ name, number: phoneOrSipParam, ...agentFields }),
  updateSchema: v.object({ name: v.optional(name), number: v.optional(phoneOrSipParam), ...agentFields }),
  defaults: { name: null, number: null, call_center_id: null, agent_status_id: null, email: null, description: null, enabled: true },
  filters: { call_center_id: { schema: idParam }, enabled: { schema: booleanParam } },
  order: NAME_ORDER,
  fulltextFields: ['name', 'number', 'email'],
  // The agent's widget has the agent's id and goes with it.
  companions: (companyId, id) => [keys.record(companyId, 'agent_widgets', id)],
  behaviour: () => import('./agent-effects.js').then((effects) => effects.voiceAgentBehaviour),
});

export const VOICE_AGENT_FIELD_TYPES = ['string', 'text', 'integer', 'decimal', 'boolean', 'date', 'phone', 'email', 'select'] as const;

export const voiceAgentFields = defineResource({
  ...routing.voiceAgentFields,
  ...voiceAgentFieldsView,
  root: 'voice_agent_field',
  plural: 'voice_agent_fields',
  createSchema: v.object({ name, key: machineKey, field_type: v.optional(oneOf(VOICE_AGENT_FIELD_TYPES)), voice_agent_id: optionalId, required: flag, prompt: optionalBounded(2000) }),
  updateSchema: v.object({ name: v.optional(name), key: v.optional(machineKey), field_type: v.optional(oneOf(VOICE_AGENT_FIELD_TYPES)), voice_agent_id: optionalId, required: flag, prompt: optionalBounded(2000) }),
  defaults: { name: null, key: null, field_type: 'string', voice_agent_id: null, required: false, prompt: null },
  filters: { voice_agent_id: { schema: idParam } },
  order: { values: ['id', 'name', 'key', 'created_at', 'updated_at'], default: 'id' },
  fulltextFields: ['name', 'key', 'prompt'],
  unique: [{ field: 'key', scope: 'company' }],
});

export const voiceAgentFlows = defineResource({
  ...routing.voiceAgentFlows,
  ...voiceAgentFlowsView,
  root: 'voice_agent_flow',
  plural: 'voice_agent_flows',
  createSchema: v.object({ name, voice_agent_id: optionalId, offer_id: optionalId, script: optionalBounded(20_000), voice_agent_field_ids: idList, enabled: flag }),
  updateSchema: v.object({ name: v.optional(name), voice_agent_id: optionalId, offer_id: optionalId, script: optionalBounded(20_000), voice_agent_field_ids: idList, enabled: flag }),
  defaults: { name: null, voice_agent_id: null, offer_id: null, script: null, voice_agent_field_ids: [], enabled: true },
  filters: { voice_agent_id: { schema: idParam }, offer_id: { schema: idParam } },
  order: NAME_ORDER,
  fulltextFields: ['name', 'script'],
});

export const voiceAgentKeywords = defineResource({
  ...routing.voiceAgentKeywords,
  ...voiceAgentKeywordsView,
  root: 'voice_agent_keyword',
  plural: 'voice_agent_keywords',
  createSchema: v.object({ keyword: v.pipe(presentString, v.maxLength(100, 'is too long (maximum is 100 characters)')), voice_agent_flow_id: idParam, voice_agent_id: optionalId }),
  updateSchema: v.object({ keyword: v.optional(v.pipe(presentString, v.maxLength(100, 'is too long (maximum is 100 characters)'))), voice_agent_flow_id: v.optional(idParam), voice_agent_id: optionalId }),
  defaults: { keyword: null, voice_agent_flow_id: null, voice_agent_id: null },
  filters: { voice_agent_flow_id: { schema: idParam }, voice_agent_id: { schema: idParam } },
  order: { values: ['id', 'keyword', 'created_at', 'updated_at'], default: 'id' },
  fulltextFields: ['keyword'],
});

export const scheduleAgents = defineResource({
  ...routing.scheduleAgents,
  ...scheduleAgentsView,
  root: 'schedule_agent',
  plural: 'schedule_agents',
  createSchema: v.object({ schedule_id: idParam, voice_agent_id: idParam, priority, enabled: flag }),
  updateSchema: v.object({ schedule_id: v.optional(idParam), voice_agent_id: v.optional(idParam), priority, enabled: flag }),
  defaults: { schedule_id: null, voice_agent_id: null, priority: 0, enabled: true },
  filters: { schedule_id: { schema: idParam }, voice_agent_id: { schema: idParam } },
  order: { values: ['id', 'priority', 'created_at', 'updated_at'], default: 'id' },
});

export const agentMessages = defineResource({
  ...routing.agentMessages,
  ...agentMessagesView,
  root: 'agent_message',
  plural: 'agent_messages',
  createSchema: v.object({ voice_agent_id: idParam, subject: optionalBounded(200), body: v.pipe(presentString, v.maxLength(5000, 'is too long (maximum is 5000 characters)')), read: flag }),
  // The message stays with its agent and says what it said; only whether it was read changes.
  updateSchema: v.object({ read: flag }),
  defaults: { voice_agent_id: null, user_id: null, subject: null, body: null, read: false },
  filters: { voice_agent_id: { schema: idParam }, read: { schema: booleanParam } },
  order: { values: ['id', 'created_at', 'updated_at'], default: 'id' },
  fulltextFields: ['subject', 'body'],
  generate: (context) => ({ user_id: context.userId ?? null }),
});

/** An agent's live state; `available` (and a status that does not pause) can be offered calls. */
export const SYSTEM_STATUSES = ['offline', 'available', 'on_call', 'wrap_up', 'away'] as const;

export const agentWidgets = defineResource({
  ...routing.agentWidgets,
  ...agentWidgetsView,
  root: 'agent_widget',
  plural: 'agent_widgets',
  createSchema: v.object({}),
  updateSchema: v.object({ system_status: v.optional(oneOf(SYSTEM_STATUSES)) }),
  defaults: { voice_agent_id: null, call_center_id: null, system_status: 'offline', system_status_changed_at: null, agent_timestamp_id: null, call_id: null },
  behaviour: () => import('./agent-effects.js').then((effects) => effects.agentWidgetBehaviour),
});

export const agentTimestamps = defineResource({
  ...routing.agentTimestamps,
  ...agentTimestampsView,
  root: 'agent_timestamp',
  plural: 'agent_timestamps',
  createSchema: v.object({}),
  updateSchema: v.object({}),
  defaults: {},
  filters: { voice_agent_id: { schema: idParam }, key: { schema: oneOf(SYSTEM_STATUSES) } },
  order: { values: ['id', 'inserted_at', 'created_at'], default: 'id' },
  fulltextFields: ['key'],
});
