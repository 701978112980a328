import { randomUUID } from 'node:crypto';
import { createRecord, getRecord, nextId, updateRecord, type StoredRecord } from '../db/records.js';
import type { HookContext, ResourceBehaviour } from '../resources/define.js';

/**
 * What agents' writes do beyond their own record (docs/resources.md, "Agents and call centers"):
 * an agent gets its widget (same id, `offline`) when it is created, and the widget follows the
 * agent's call center; a widget's change of `system_status` closes the agent's open
 * agent_timestamp (ended_at, duration) and opens one for the new status.
 */

const WIDGETS = 'agent_widgets';
const TIMESTAMPS = 'agent_timestamps';

/** Colours of the timestamps' `key_color` per system status, for the reference's column. */
const STATUS_COLORS: Record<string, string> = { offline: '#9e9e9e', available: '#4caf50', on_call: '#2196f3', wrap_up: '#ff9800', away: '#f44336' };

export const voiceAgentBehaviour: ResourceBehaviour = {
  async afterWrite(context, { before, after }) {
    const agentId = Number(after.id);
    if (!before) {
      const at = context.now.toISOString();
      const widget: StoredRecord = {
        id: agentId,
        uuid: randomUUID(),
        created_at: at,
        updated_at: at,
        voice_agent_id: agentId,
        call_center_id: after.call_center_id ?? null,
        system_status: 'offline',
        system_status_changed_at: null,
        agent_timestamp_id: null,
      };
      await createRecord(context.companyId, WIDGETS, widget);
      return;
    }
    if ((before.call_center_id ?? null) !== (after.call_center_id ?? null)) {
      await updateRecord(context.companyId, WIDGETS, agentId, { call_center_id: after.call_center_id ?? null, updated_at: context.now.toISOString() });
    }
  },
};

/** Whole seconds from `from` to `to` (never negative). */
const secondsBetween = (from: unknown, to: Date): number | null => (typeof from === 'string' ? Math.max(0, Math.round((to.getTime() - Date.parse(from)) / 1000)) : null);

export const agentWidgetBehaviour: ResourceBehaviour = {
  async prepareUpdate(context: HookContext, before, fields) {
    if (fields.system_status === undefined || fields.system_status === before.system_status) return {};
    // The new status's timestamp id is chosen here, so the widget names it in the update's own write
    // (and answer); afterWrite then writes the timestamp (an id burned by a failed write is harmless).
    return { system_status_changed_at: context.now.toISOString(), agent_timestamp_id: await nextId(context.companyId, TIMESTAMPS) };
  },
  async afterWrite(context, { before, after }) {
    if (!before || before.system_status === after.system_status) return;
    const companyId = context.companyId;
    const at = context.now.toISOString();
    if (typeof before.agent_timestamp_id === 'number') {
      const open = await getRecord(companyId, TIMESTAMPS, before.agent_timestamp_id);
      if (open && open.ended_at == null) {
        const duration = secondsBetween(open.inserted_at, context.now);
        await updateRecord(companyId, TIMESTAMPS, open.id, { ended_at: at, duration, agent_duration: duration, updated_at: at });
      }
    }
    const status = String(after.system_status);
    const timestamp: StoredRecord = {
      id: Number(after.agent_timestamp_id),
      uuid: randomUUID(),
      created_at: at,
      updated_at: at,
      key: status,
      key_color: STATUS_COLORS[status] ?? null,
      call_id: null,
      call_id_color: null,
      collaborator_id: context.userId ?? null,
      duration: null,
      inserted_at: at,
      off_hook_lead_call_id: null,
      lead_id: null,
      call_uuid: null,
      off_hook_lead_call_uuid: null,
      agent_duration: null,
      call_total_duration: null,
      billable_duration: null,
      unbillable_duration: null,
      ended_at: null,
      voice_agent_id: after.voice_agent_id ?? after.id,
    };
    await createRecord(companyId, TIMESTAMPS, timestamp);
  },
};
