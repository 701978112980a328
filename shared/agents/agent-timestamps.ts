import { randomUUID } from 'node:crypto';
import type { StoredRecord } from '../db/records.js';

/**
 * agent_timestamps as plain values (docs/resources.md, "Agents and call centers"): the record a
 * status change opens and the fields that close the one before. Pure; written by the widget's
 * API updates (agent-effects.ts) and by the call engine's claims and releases (agent-claims.ts).
 */

/** Colours of the timestamps' `key_color` per system status, for the reference's column. */
export const STATUS_COLORS: Record<string, string> = { offline: '#9e9e9e', available: '#4caf50', on_call: '#2196f3', wrap_up: '#ff9800', away: '#f44336' };

/** Whole seconds from `from` to `to` (never negative). */
export const secondsBetween = (from: unknown, to: Date): number | null => (typeof from === 'string' ? Math.max(0, Math.round((to.getTime() - Date.parse(from)) / 1000)) : null);

/** The call an `on_call` timestamp is about. */
export interface TimestampCall {
  id: number;
  uuid: string | null;
  leadId: number | null;
}

/** The timestamp a change to `status` opens (open: no `ended_at`). */
export function openedTimestamp(id: number, status: string, voiceAgentId: unknown, at: Date, options: { collaboratorId?: number | null; call?: TimestampCall } = {}): StoredRecord {
  const iso = at.toISOString();
  return {
    id,
    uuid: randomUUID(),
    created_at: iso,
    updated_at: iso,
    key: status,
    key_color: STATUS_COLORS[status] ?? null,
    call_id: options.call?.id ?? null,
    call_id_color: options.call ? (STATUS_COLORS.on_call ?? null) : null,
    collaborator_id: options.collaboratorId ?? null,
    duration: null,
    inserted_at: iso,
    off_hook_lead_call_id: null,
    lead_id: options.call?.leadId ?? null,
    call_uuid: options.call?.uuid ?? null,
    off_hook_lead_call_uuid: null,
    agent_duration: null,
    call_total_duration: null,
    billable_duration: null,
    unbillable_duration: null,
    ended_at: null,
    voice_agent_id: voiceAgentId ?? null,
  };
}

/**
 * The fields that close `open` at `at`. Closing an `on_call` timestamp with `talkSeconds` (the
 * agent's conversation, as the carrier reported it) also books the call's durations: billable =
 * talk, call_total_duration = the time the agent held the call (at least the talk), unbillable =
 * the rest (ringing).
 */
export function closingFields(open: Record<string, unknown>, at: Date, talkSeconds?: number): Record<string, unknown> {
  const duration = secondsBetween(open.inserted_at, at);
  const fields: Record<string, unknown> = { ended_at: at.toISOString(), duration, agent_duration: duration, updated_at: at.toISOString() };
  if (talkSeconds !== undefined && duration !== null) {
    const billable = Math.max(0, Math.round(talkSeconds));
    const total = Math.max(duration, billable);
    Object.assign(fields, { call_total_duration: total, billable_duration: billable, unbillable_duration: total - billable });
  }
  return fields;
}
