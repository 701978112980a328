import { getRecords } from '../../shared/db/records.js';

/** The external ids a call row shows beside its traffic source's and buyer's ids. */
export interface CallExternalIds {
  user_traffic_source_id: string | null;
  user_buyer_id: string | null;
}

const EXTERNAL_COLUMNS = ['user_traffic_source_id', 'user_buyer_id'];

function idOf(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isSafeInteger(value) ? value : undefined;
}

function textOf(value: unknown): string | null {
  return typeof value === 'string' && value !== '' ? value : null;
}

/**
 * The external ids (`user_traffic_source_id`, `user_buyer_id`) of a page of calls: one
 * BatchGetItem of the distinct traffic sources and buyers the page names, and none when the
 * client's `columns` leave both out. Reporting clients copy them with each call
 * (docs/compatibility.md); calls store the ids only, so a renamed external id shows at once.
 */
export async function externalIdsOf(companyId: number, calls: readonly Record<string, unknown>[], columns?: readonly string[]): Promise<Map<number, CallExternalIds>> {
  const out = new Map<number, CallExternalIds>();
  if (calls.length === 0 || (columns && !columns.some((column) => EXTERNAL_COLUMNS.includes(column)))) return out;
  const sourceIds = [...new Set(calls.map((call) => idOf(call.traffic_source_id)).filter((id): id is number => id !== undefined))];
  const buyerIds = [...new Set(calls.map((call) => idOf(call.buyer_id)).filter((id): id is number => id !== undefined))];
  const [sources, buyers] = await Promise.all([sourceIds.length ? getRecords(companyId, 'traffic_sources', sourceIds) : [], buyerIds.length ? getRecords(companyId, 'buyers', buyerIds) : []]);
  const sourceById = new Map(sources.map((source) => [source.id, textOf(source.user_traffic_source_id)]));
  const buyerById = new Map(buyers.map((buyer) => [buyer.id, textOf(buyer.user_buyer_id)]));
  for (const call of calls) {
    const sourceId = idOf(call.traffic_source_id);
    const buyerId = idOf(call.buyer_id);
    out.set(Number(call.id), {
      user_traffic_source_id: sourceId === undefined ? null : (sourceById.get(sourceId) ?? null),
      user_buyer_id: buyerId === undefined ? null : (buyerById.get(buyerId) ?? null),
    });
  }
  return out;
}
