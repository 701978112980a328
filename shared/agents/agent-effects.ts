import { randomUUID } from 'node:crypto';
import { createRecord, getRecord, nextId, updateRecord, type StoredRecord } from '../db/records.js';
import type { HookContext, ResourceBehaviour } from '../resources/define.js';
import { closingFields, openedTimestamp } from './agent-timestamps.js';

/**
 * What agents' writes do beyond their own record (docs/resources.md, "Agents and call centers"):
 * an agent gets its widget (same id, `offline`) when it is created, and the widget follows the
 * agent's call center; a widget's change of `system_status` closes the agent's open
 * agent_timestamp (ended_at, duration) and opens one for the new status.
 */

const WIDGETS = 'agent_widgets';
const TIMESTAMPS = 'agent_timestamps';

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
        call_id: null,
      };
      await createRecord(context.companyId, WIDGETS, widget);
      return;
    }
    if ((before.call_center_id ?? null) !== (after.call_center_id ?? null)) {
      await updateRecord(context.companyId, WIDGETS, agentId, { call_center_id: after.call_center_id ?? null, updated_at: context.now.toISOString() });
    }
  },
};

export const agentWidgetBehaviour: ResourceBehaviour = {
  async prepareUpdate(context: HookContext, before, fields) {
    if (fields.system_status === undefined || fields.system_status === before.system_status) return {};
    // The new status's timestamp id is chosen here, so the widget names it in the update's own write
    // (and answer); afterWrite then writes the timestamp (an id burned by a failed write is harmless).
    // A status set by hand ends the widget's hold on a call: the call's end then releases nothing.
    return { system_status_changed_at: context.now.toISOString(), agent_timestamp_id: await nextId(context.companyId, TIMESTAMPS), call_id: null };
  },
  async afterWrite(context, { before, after }) {
    if (!before || before.system_status === after.system_status) return;
    const companyId = context.companyId;
    if (typeof before.agent_timestamp_id === 'number') {
      const open = await getRecord(companyId, TIMESTAMPS, before.agent_timestamp_id);
      if (open && open.ended_at == null) await updateRecord(companyId, TIMESTAMPS, open.id, closingFields(open, context.now));
    }
    const timestamp = openedTimestamp(Number(after.agent_timestamp_id), String(after.system_status), after.voice_agent_id ?? after.id, context.now, { collaboratorId: context.userId ?? null });
    await createRecord(companyId, TIMESTAMPS, timestamp);
  },
};
