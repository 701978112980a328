import { COMMON_COLUMNS } from '../resources/define.js';
import { isoWithOffset } from '../time.js';
import type { LeadRecord } from './lead-record.js';

/** Storage-only attributes of a lead that the API does not show. */
const HIDDEN = new Set(['version', 'step_version', 'distributed']);

/** The columns of a lead, in the order lists and CSV show them (`columns` picks among them). */
export const LEAD_COLUMNS = [
  ...COMMON_COLUMNS,
  'company_id',
  'lead_token',
  'offer_id',
  'schedule_id',
  'caller_id',
  'email',
  'status',
  'lead_priority',
  'contact_attempts',
  'max_contact_attempts',
  'hours_to_expire',
  'expires_at',
  'phase',
  'action_index',
  'current_action_id',
  'next_action_at',
  'callback_at',
  'wait_until',
  'call_ids',
  'last_skipped_action',
  'converted',
  'ended_at',
  'end_reason',
  'contact_field_type',
  'data',
] as const;

/** A lead as the API shows it (show, list, events): times with the zone offset, internals hidden. */
export function leadView(lead: LeadRecord, timeZone = 'UTC'): Record<string, unknown> {
  // The reference's common columns, as calls show them (call-view.ts): leads have no legacy or
  // external id and are never soft-deleted, so those are null unless a record carries them.
  const path = `/api/v1/leads/${String(lead.id)}`;
  const out: Record<string, unknown> = {
    type: 'Lead',
    legacy_id: null,
    deleted_at: null,
    user_updated_at: null,
    routes_show_path: path,
    routes_edit_path: path,
    external_record_id: null,
  };
  for (const [name, value] of Object.entries(lead)) {
    if (HIDDEN.has(name)) continue;
    out[name] = typeof value === 'string' && /_at$/.test(name) && value ? isoWithOffset(value, timeZone) : value;
  }
  return out;
}
