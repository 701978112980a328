import { queryAllRecords } from '../db/records.js';
import { matchesFilters, parseTokenFilterList, type TokenValues } from '../routing/token-filters.js';
import { renderTemplate } from './text-match.js';

/**
 * What the call's configuration adds to a dial (docs/call-configuration.md): the SIP headers of
 * a SIP buyer (sip_headers of the buyer and/or offer, values filled from the call's tokens and
 * fields) and whether the dial is recorded (the first enabled call_recording_rules entry that
 * matches). One Query per resource, the headers' only for SIP buyers.
 */
export interface DialExtras {
  /** Header name as sent (`X-` prefixed) and value, bounded. */
  sipHeaders: Array<{ name: string; value: string }>;
  /** Record from the buyer's answer, caller and buyer on two channels (`dual`) or one; null: no recording. */
  record: 'dual' | 'mono' | null;
}

export const MAX_DIAL_SIP_HEADERS = 20;
export const MAX_SIP_HEADER_VALUE = 256;

type Row = Record<string, unknown>;

/** The call's fields a header template may name beside its data tokens. */
export function templateValues(call: Row): Record<string, unknown> {
  const data = call.data && typeof call.data === 'object' ? (call.data as Row) : {};
  return {
    ...data,
    call_id: call.id,
    call_uuid: call.uuid,
    caller_number: call.caller_number,
    caller_city: call.caller_city,
    caller_state: call.caller_state,
    number: call.number,
    offer_id: call.offer_id,
    offer: call.offer,
    buyer_id: call.buyer_id,
    traffic_source_id: call.traffic_source_id,
  };
}

const scoped = (value: unknown, id: unknown) => value === null || value === undefined || value === id;

/** The headers of `rows` for a dial of `buyer` (pure). */
export function sipHeadersFor(rows: readonly Row[], buyer: Row, call: Row): DialExtras['sipHeaders'] {
  const values = templateValues(call);
  return [...rows]
    .filter((row) => row.enabled !== false && scoped(row.buyer_id, buyer.id) && scoped(row.offer_id, call.offer_id) && typeof row.name === 'string')
    .sort((a, b) => Number(a.id) - Number(b.id))
    .slice(0, MAX_DIAL_SIP_HEADERS)
    .map((row) => {
      const name = String(row.name);
      return { name: /^x-/i.test(name) ? name : `X-${name}`, value: renderTemplate(String(row.value ?? ''), values, MAX_SIP_HEADER_VALUE) };
    });
}

/** The recording a dial of `buyer` gets from `rules` (pure): the first enabled matching rule, by id. */
export function recordingFor(rules: readonly Row[], buyer: Row, call: Row): DialExtras['record'] {
  const tokens = (call.data ?? {}) as TokenValues;
  const rule = [...rules]
    .sort((a, b) => Number(a.id) - Number(b.id))
    .find((row) => {
      if (row.enabled === false || !scoped(row.offer_id, call.offer_id) || !scoped(row.buyer_id, buyer.id) || !scoped(row.traffic_source_id, call.traffic_source_id)) return false;
      const filters = parseTokenFilterList(row.record_token_filter_list ?? null);
      return filters.ok && matchesFilters(filters.filters, tokens);
    });
  return rule ? (rule.recording_channels === 'mono' ? 'mono' : 'dual') : null;
}

/**
 * `read`: the company's call_recording_rules and sip_headers when already read with the call's
 * other reads (shared/calls/dial-reads.ts); else one Query each (the headers' for SIP buyers only).
 */
export async function dialExtras(companyId: number, buyer: Row, call: Row, read: { recordingRules?: readonly Row[]; sipHeaders?: readonly Row[] } = {}): Promise<DialExtras> {
  const sip = String(buyer.number ?? '').toLowerCase().startsWith('sip:');
  const [headers, rules] = await Promise.all([
    sip ? (read.sipHeaders ?? queryAllRecords(companyId, 'sip_headers')) : Promise.resolve([]),
    read.recordingRules ?? queryAllRecords(companyId, 'call_recording_rules'),
  ]);
  return { sipHeaders: sip ? sipHeadersFor(headers, buyer, call) : [], record: recordingFor(rules, buyer, call) };
}
