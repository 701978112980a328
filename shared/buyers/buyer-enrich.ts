import { queryAllRecords } from '../db/records.js';
import type { HookContext } from '../resources/define.js';
import { isoWithOffset } from '../time.js';
import { METRICS, PERIODS, capReached, currentCounters, periodKeys } from './counter-model.js';
import { readCounterItems } from './counters.js';
import { buyerLimits, buyerTimeZone } from './limits.js';

/** The buyer's shown columns that live beyond its record (its view's enricher, apart from the write hooks). */

/** Live counters, caps and group membership of a page of buyers: one BatchGet and one Query. */
export async function enrich(context: HookContext, buyers: readonly Record<string, unknown>[]) {
  const ids = buyers.map((buyer) => Number(buyer.id));
  const [counterItems, groups] = await Promise.all([
    readCounterItems(context.companyId, ids),
    queryAllRecords(context.companyId, 'buyer_groups'),
  ]);
  const out = new Map<number, Record<string, unknown>>();
  for (const buyer of buyers) {
    const id = Number(buyer.id);
    const timeZone = buyerTimeZone(buyer);
    const item = counterItems.get(id);
    const counters = currentCounters(item, periodKeys(context.now, timeZone));
    const limits = buyerLimits(buyer, context.now);
    const columns: Record<string, unknown> = {
      concurrency_cap_used: counters.concurrency,
      maxed_out_by: capReached(counters, limits) ?? null,
      last_call_at: typeof item?.last_call_at === 'string' ? isoWithOffset(item.last_call_at) : null,
    };
    for (const metric of METRICS) {
      for (const period of PERIODS) {
        columns[`${metric}_${period}_used`] = counters[metric][period];
        columns[`${metric}_${period}_limit`] = limits.caps[metric]?.[period] ?? null;
      }
    }
    const memberOf = groups.filter((group) => Array.isArray(group.buyer_ids) && (group.buyer_ids as number[]).includes(id));
    columns.buyer_group_ids = memberOf.map((group) => group.id);
    columns.buyer_group_names = memberOf.map((group) => group.name);
    out.set(id, columns);
  }
  return out;
}
