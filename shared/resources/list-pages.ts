import { countRecords, getRecords, queryAllRecords, queryRecordsToPick, queryRecordPage, type StoredRecord } from '../db/records.js';
import { cursorKey, cursorPosition, nextCursor } from '../http/list-cursor.js';
import { paginate, sortRecords, type ListParams } from '../http/list-params.js';
import { rowsWithinBudget } from '../http/response-budget.js';
import { parseApiTime } from '../time.js';
import type { ResourceDefinition } from './define.js';

/** The pages a resource's list answers: by cursor (newest first) or by page number, reading only what the page needs. */

export interface ListedPage {
  rows: Record<string, unknown>[];
  metadata: Record<string, unknown>;
}

export type Serializer = (records: readonly StoredRecord[]) => Promise<Record<string, unknown>[]>;

/** Cursor paging: newest first, reading only the items this page needs. */
export async function cursorPage(
  resource: ResourceDefinition,
  companyId: number,
  params: ListParams,
  accept: ((record: StoredRecord) => boolean) | undefined,
  serialize: Serializer,
): Promise<ListedPage> {
  const key = await cursorKey();
  const afterId = cursorPosition(params.cursor, key, companyId, resource.name);
  // `ids` is a filter like the others here (numbered pages read those records directly).
  const wanted = params.ids ? new Set(params.ids) : undefined;
  const keep = wanted ? (record: StoredRecord) => wanted.has(record.id) && (!accept || accept(record)) : accept;
  const page = await queryRecordPage({ companyId, resource: resource.name, direction: 'desc', limit: params.per_page + 1, afterId, accept: keep });
  const serialized = await serialize(page.records.slice(0, params.per_page));
  // A page stops early when its rows would pass the response budget; the cursor goes on from there.
  const fits = rowsWithinBudget(serialized);
  const records = page.records.slice(0, fits);
  const more = page.records.length > fits;
  const last = records[records.length - 1];
  return {
    rows: serialized.slice(0, fits),
    metadata: {
      per_page: params.per_page,
      cursor: params.cursor,
      next_cursor: nextCursor(more, last, key, companyId, resource.name),
      ...(keep ? {} : { total_count: await countRecords(companyId, resource.name) }),
    },
  };
}

/** Which records a list keeps, and the stored attributes it decides that from. */
export interface ListSelection {
  accept: ((record: Record<string, unknown>) => boolean) | undefined;
  attributes: readonly string[];
}

/**
 * Page-number paging. Unfiltered id order reads only up to the page. Other orders and filters
 * pick the page from the stored attributes they need (past the first Query's 1 MB, read with a
 * projected Query of the partition), then read and show only the page's records, so
 * enrichment (live counters, associations) and serialisation cost a page, not the set. Orders by
 * a computed column (`computedOrder`: live counters) show the whole set to sort it by the shown value.
 */
export async function numberedPage(
  resource: ResourceDefinition,
  companyId: number,
  params: ListParams,
  filter: ListSelection,
  serialize: Serializer,
): Promise<ListedPage> {
  const { accept } = filter;
  const sort = params.order
    ? { attribute: params.order, direction: params.order_dir ?? 'asc' }
    : { attribute: resource.defaultSort?.attribute ?? 'id', direction: params.order_dir ?? resource.defaultSort?.direction ?? 'asc' };
  const metadata = (total: number) => ({ total_count: total, page: params.page, per_page: params.per_page, total_pages: Math.ceil(total / params.per_page) });

  if (!params.ids && !accept && sort.attribute === 'id') {
    const [{ records }, total] = await Promise.all([
      queryRecordPage({ companyId, resource: resource.name, direction: sort.direction, limit: params.page * params.per_page }),
      countRecords(companyId, resource.name),
    ]);
    return { rows: await serialize(records.slice((params.page - 1) * params.per_page)), metadata: metadata(total) };
  }
  if (resource.computedOrder?.includes(sort.attribute)) {
    const candidates = params.ids ? await getRecords(companyId, resource.name, params.ids) : await queryAllRecords(companyId, resource.name);
    const records = accept ? candidates.filter(accept) : candidates;
    const rows = await serialize(records);
    const keyed = records.map((record, index) => ({ id: record.id, [sort.attribute]: record[sort.attribute] ?? rows[index]![sort.attribute], row: rows[index]! }));
    const page = paginate(sortRecords(keyed, sort.attribute, sort.direction), params.page, params.per_page);
    return { rows: page.items.map((item) => item.row), metadata: metadata(page.total_count) };
  }
  // `ids` names at most MAX_PER_PAGE records, and a set that fits one Query response is read whole:
  // then the candidates are the page's rows, with no second read.
  const { records: candidates, whole } = params.ids
    ? { records: await getRecords(companyId, resource.name, params.ids), whole: true }
    : await queryRecordsToPick(companyId, resource.name, [sort.attribute, ...filter.attributes]);
  const kept = accept ? candidates.filter(accept) : candidates;
  const page = paginate(sortRecords(kept, sort.attribute, sort.direction), params.page, params.per_page);
  const records = whole ? (page.items as StoredRecord[]) : await getRecords(companyId, resource.name, page.items.map((item) => item.id));
  return { rows: await serialize(records), metadata: metadata(page.total_count) };
}

export function timeOrError(text: string | undefined, timeZone: string): Date | undefined {
  return text === undefined ? undefined : parseApiTime(text, timeZone);
}
