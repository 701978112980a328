import { isoWithOffset } from '../time.js';
import type { LeadRecord } from './lead-record.js';

/** Storage-only attributes of a lead that the API does not show. */
const HIDDEN = new Set(['version', 'step_version', 'distributed']);

/** The columns of a lead, in the order lists and CSV show them (`columns` picks among them). */
export const LEAD_COLUMNS = [
  'id',
  'uuid',
  'type',
  'created_at',
  'updated_at',
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
  'converted',
  'ended_at',
  'end_reason',
  'contact_field_type',
  'data',
] as const;

/** A lead as the API shows it (show, list, events): times with the zone offset, internals hidden. */
export function leadView(lead: LeadRecord, timeZone = 'UTC'): Record<string, unknown> {
  const out: Record<string, unknown> = { type: 'Lead' };
  for (const [name, value] of Object.entries(lead)) {
    if (HIDDEN.has(name)) continue;
    out[name] = typeof value === 'string' && /_at$/.test(name) && value ? isoWithOffset(value, timeZone) : value;
  }
  return out;
}
