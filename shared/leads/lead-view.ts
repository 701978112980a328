import { isoWithOffset } from '../time.js';
import type { LeadRecord } from './lead-record.js';

/** Storage-only attributes of a lead that the API does not show. */
const HIDDEN = new Set(['version', 'step_version']);

/** A lead as the API shows it (show, list, events): times with the zone offset, internals hidden. */
export function leadView(lead: LeadRecord): Record<string, unknown> {
  const out: Record<string, unknown> = { type: 'Lead' };
  for (const [name, value] of Object.entries(lead)) {
    if (HIDDEN.has(name)) continue;
    out[name] = typeof value === 'string' && /_at$/.test(name) && value ? isoWithOffset(value) : value;
  }
  return out;
}
