import { COMMON_COLUMNS } from '../resources/define.js';
import { isoWithOffset } from '../time.js';
import { REPORTING_COLUMNS, reportingFields } from './call-record-fields.js';

/** The columns of a call in the API (list `columns`, CSV, show, events), in order. */
export const CALL_COLUMNS = [
  ...COMMON_COLUMNS,
  'ended_at',
  'status',
  'in_progress',
  'offer',
  'offer_id',
  'traffic_source',
  'traffic_source_id',
  'buyer',
  'buyer_id',
  'caller_number',
  'caller_city',
  'caller_state',
  'caller_country',
  'number',
  'number_id',
  'total_duration',
  'answered_duration',
  'buyer_converted',
  'offer_converted',
  'revenue',
  'buyer_revenue',
  'payout',
  'traffic_source_payout',
  'profit',
  'has_recording',
  'recording_url',
  'data',
  'first_name',
  'last_name',
  'email',
  'address',
  'city',
  'state',
  'zip',
  'ping_id',
  'conversion_name',
  'direction',
  'lead_id',
  // The call center agent ringing or taking the call (docs/resources.md, "Agents and call centers").
  'agent_id',
  'agent',
  // Dispositions and transcription (docs/call-configuration.md).
  'call_disposition_id',
  'disposition',
  'transcription_status',
  'transcription',
  'transcription_keyword_group_ids',
  'tags',
  // The rest of the hosted service's call record, as reporting clients read it (call-record-fields.ts).
  ...REPORTING_COLUMNS,
] as const;

const REPORTING = new Set<string>(REPORTING_COLUMNS);

const TIMES = new Set(['created_at', 'updated_at', 'deleted_at', 'user_updated_at', 'ended_at']);

/** A stored call as the API shows it, times in `timeZone`; `external`: its traffic source's and buyer's external ids, when read. */
export function callView(call: Record<string, unknown>, timeZone = 'UTC', external?: Parameters<typeof reportingFields>[1]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const reporting: Record<string, unknown> = reportingFields(call, external);
  const path = `/api/v1/calls/${String(call.id)}`;
  for (const column of CALL_COLUMNS) {
    const value = call[column];
    if (REPORTING.has(column)) out[column] = reporting[column];
    else if (column === 'type') out.type = 'Call';
    else if (column === 'routes_show_path' || column === 'routes_edit_path') out[column] = path;
    else if (TIMES.has(column)) out[column] = typeof value === 'string' && value ? isoWithOffset(value, timeZone) : null;
    // Calls recorded before outbound dialing existed carry no direction: they were all inbound.
    else if (column === 'direction') out.direction = value ?? 'inbound';
    else out[column] = value ?? null;
  }
  return out;
}
