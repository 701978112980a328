import * as v from 'valibot';
import { dayRecordKey, queryDayRecords } from '../../shared/db/day-records.js';
import { ID_EPOCH_MS, timeOfId } from '../../shared/db/ids.js';
import { getItems, withoutKeys } from '../../shared/db/records.js';
import { csvResponse, toCsv } from '../../shared/http/csv.js';
import { idParam, oneOf } from '../../shared/http/param-schemas.js';
import { listParamsSchema, type ListParams } from '../../shared/http/list-params.js';
import { cursorKey, cursorPosition, nextCursor } from '../../shared/http/list-cursor.js';
import type { Operation } from '../../shared/http/request.js';
import { rowsWithinBudget } from '../../shared/http/response-budget.js';
import { validate } from '../../shared/http/validation.js';
import { LEAD_STATUSES, type LeadRecord } from '../../shared/leads/lead-record.js';
import { queryLeadRollups } from '../../shared/leads/lead-rollup-store.js';
import { leadCellStartMs, type LeadReportCategory, type LeadStatField } from '../../shared/leads/lead-rollups.js';
import { LEADS, leadsOfContact } from '../../shared/leads/lead-store.js';
import { LEAD_COLUMNS, leadView } from '../../shared/leads/lead-view.js';
import { pickColumns } from '../../shared/resources/serialize.js';
import { callerNumberParam, creationWindow, MAX_PAGE_DEPTH, timeMs, unlessBlank } from '../calls/call-filters.js';
import { cursorListResult } from '../calls/call-pages.js';

/** Cursors of this list are bound to this name (and the company). */
const RESOURCE = 'leads';

/** A caller's leads read at most for `caller_id` (a contact rarely has more). */
export const MAX_CALLER_LEADS = 1000;

const LEAD_FILTERS = {
  offer_id: unlessBlank(idParam),
  schedule_id: unlessBlank(idParam),
  caller_id: unlessBlank(callerNumberParam),
  status: unlessBlank(oneOf(LEAD_STATUSES)),
};

interface LeadListParams extends ListParams {
  offer_id?: number;
  schedule_id?: number;
  caller_id?: string;
  status?: LeadRecord['status'];
}

export const leadListSchema = v.pipe(
  listParamsSchema({ columns: LEAD_COLUMNS, csv: true, filters: LEAD_FILTERS }),
  v.rawCheck(({ dataset, addIssue }) => {
    if (!dataset.typed) return;
    const params = dataset.value;
    if (params.order_dir === 'asc') addIssue({ message: 'leads are listed newest first (desc)', path: [{ type: 'object', origin: 'value', input: params, key: 'order_dir', value: params.order_dir }] });
    if (params.cursor === undefined && params.page * params.per_page > MAX_PAGE_DEPTH) {
      addIssue({ message: `reaches past record ${MAX_PAGE_DEPTH}; page deeper with cursor`, path: [{ type: 'object', origin: 'value', input: params, key: 'page', value: params.page }] });
    }
  }),
) as unknown as v.GenericSchema<unknown, LeadListParams>;

/** The equality filters a lead must pass. Pure. */
export function leadPredicate(params: Pick<LeadListParams, 'offer_id' | 'schedule_id' | 'caller_id' | 'status' | 'fulltext'>): (lead: Record<string, unknown>) => boolean {
  const needle = params.fulltext?.trim().toLowerCase();
  return (lead) =>
    (params.offer_id === undefined || lead.offer_id === params.offer_id) &&
    (params.schedule_id === undefined || lead.schedule_id === params.schedule_id) &&
    (params.caller_id === undefined || lead.caller_id === params.caller_id) &&
    (params.status === undefined || lead.status === params.status) &&
    (!needle || [lead.caller_id, lead.email, lead.uuid, JSON.stringify(lead.data ?? {})].some((text) => String(text ?? '').toLowerCase().includes(needle)));
}

/**
 * Which rollup cells answer `total_count` for these filters, or undefined when the rollups
 * cannot (the count is then null). Pure.
 */
export function totalCountSource(params: Pick<LeadListParams, 'offer_id' | 'schedule_id' | 'status' | 'fulltext'>): { category: LeadReportCategory; value?: string; field: LeadStatField } | undefined {
  if (params.fulltext?.trim()) return undefined;
  if (params.offer_id !== undefined && params.schedule_id !== undefined) return undefined;
  const field: LeadStatField = params.status ?? 'leads';
  if (params.schedule_id !== undefined) return { category: 'schedule', value: String(params.schedule_id), field };
  if (params.offer_id !== undefined) return { category: 'offer', value: String(params.offer_id), field };
  // Every lead counts once in the status category: all its values add up to the whole.
  return { category: 'status', ...(params.status ? { value: params.status } : {}), field };
}

const HOUR_MS = 3600_000;

/** `total_count` from the rollups: the leads created in the window's whole UTC hours (docs/leads.md). */
async function rollupTotal(companyId: number, params: LeadListParams, window: { fromMs: number; toMs: number }): Promise<number | null> {
  const source = totalCountSource(params);
  if (!source) return null;
  const fromMs = Math.floor(window.fromMs / HOUR_MS) * HOUR_MS;
  const items = await queryLeadRollups(companyId, source.category, fromMs, window.toMs, source.value);
  return items.filter((item) => leadCellStartMs(item) >= fromMs && leadCellStartMs(item) <= window.toMs).reduce((sum, item) => sum + Number(item[source.field] ?? 0), 0);
}

async function leadsById(companyId: number, ids: readonly number[]): Promise<LeadRecord[]> {
  const items = await getItems([...new Set(ids)].map((id) => dayRecordKey(companyId, LEADS, id)));
  return items.map((item) => withoutKeys(item) as LeadRecord);
}

/**
 * `GET /api/v1/leads` (and `/api/v1/leads.csv`): the company's leads, newest first, by cursor
 * (or `page`, up to record 10,000), read from the day partitions of the creation window (the last
 * 30 days unless `created_at_from` says otherwise); `caller_id` reads the caller's leads from the
 * contact index instead, `ids` reads them by key. Filters apply while reading.
 */
export const listLeads: Operation = async (request) => {
  const params = validate(leadListSchema, request.params);
  const companyId = request.auth.companyId;
  const timeZone = params.time_zone ?? 'UTC';
  const key = await cursorKey();
  const beforeId = cursorPosition(params.cursor, key, companyId, RESOURCE);
  const skip = params.cursor === undefined ? (params.page - 1) * params.per_page : 0;
  const createdFromMs = timeMs(params.created_at_from, timeZone);
  const createdToMs = timeMs(params.created_at_to, timeZone);
  const window = params.ids
    ? { fromMs: createdFromMs ?? ID_EPOCH_MS, toMs: createdToMs ?? Number.MAX_SAFE_INTEGER }
    : creationWindow({ createdFromMs, createdToMs, nowMs: request.now.getTime() });
  const accept = leadPredicate(params);
  const limit = skip + params.per_page + 1;
  const inWindow = (lead: LeadRecord) => timeOfId(lead.id) >= window.fromMs && timeOfId(lead.id) <= window.toMs && (beforeId === undefined || lead.id < beforeId);

  let found: LeadRecord[];
  let resumeBeforeId: number | undefined;
  let total: number | null;
  if (params.ids || params.caller_id !== undefined) {
    const read = params.ids ? await leadsById(companyId, params.ids) : await leadsOfContact(companyId, params.caller_id!, undefined, MAX_CALLER_LEADS);
    const matching = read.filter((lead) => timeOfId(lead.id) >= window.fromMs && timeOfId(lead.id) <= window.toMs && accept(lead));
    total = matching.length;
    found = matching.filter(inWindow).sort((a, b) => b.id - a.id).slice(0, limit);
  } else {
    const [page, count] = await Promise.all([
      queryDayRecords({ companyId, resource: LEADS, beforeId, fromMs: window.fromMs, toMs: window.toMs, limit, accept }),
      rollupTotal(companyId, params, window),
    ]);
    found = page.records as LeadRecord[];
    resumeBeforeId = page.resumeBeforeId;
    total = count;
  }

  const wanted = found.slice(skip, skip + params.per_page);
  const allRows = wanted.map((lead) => pickColumns(leadView(lead, timeZone), params.columns));
  const fits = rowsWithinBudget(allRows);
  const leads = wanted.slice(0, fits);
  const rows = allRows.slice(0, fits);
  const next = nextCursor(found.length > skip + fits, leads[leads.length - 1], key, companyId, RESOURCE, resumeBeforeId);

  if (request.route.path.endsWith('.csv') || params.format === 'csv') {
    const response = csvResponse('leads.csv', toCsv(params.columns ?? LEAD_COLUMNS, rows));
    return { kind: 'raw', response: { ...response, headers: { ...response.headers, 'x-next-cursor': String(next), 'x-total-count': String(total) } } };
  }
  const metadata = { ...(params.cursor === undefined ? { page: params.page } : {}), per_page: params.per_page, cursor: params.cursor ?? '-1', next_cursor: next, total_count: total, ...(typeof total === 'number' ? { total_pages: Math.ceil(total / params.per_page) } : {}) };
  return cursorListResult('leads', rows, metadata, !params.root);
};
