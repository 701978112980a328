import { keys } from '../db/keys.js';
import { buyerIdOfStats } from '../buyers/counters.js';
import { getItems, getRecords, withoutKeys } from '../db/records.js';
import type { RoutingBuyer } from './route-buyers.js';

/**
 * The I/O around the routing decision: the wanted buyers and their `stats#` counter items, read
 * by key (never the company's whole buyers partition).
 */
/** A record naming buyers: an offer or a webhook (`buyer_ids`, `buyer_group_ids`). */
export type BuyerSelection = Record<string, unknown>;

function ids(value: unknown): number[] {
  return Array.isArray(value) ? value.filter((id): id is number => typeof id === 'number') : [];
}

/** Does this selection name any buyer or group? */
export function selectsBuyers(selection: BuyerSelection | undefined): boolean {
  return Boolean(selection && (ids(selection.buyer_ids).length || ids(selection.buyer_group_ids).length));
}

/** The buyer ids a selection names: its buyers plus the members of its groups (one BatchGet). */
export async function selectedBuyerIds(companyId: number, selection: BuyerSelection): Promise<Set<number>> {
  const selected = new Set(ids(selection.buyer_ids));
  const groupIds = ids(selection.buyer_group_ids);
  if (groupIds.length) {
    for (const group of await getRecords(companyId, 'buyer_groups', groupIds)) {
      for (const id of ids(group.buyer_ids)) selected.add(id);
    }
  }
  return selected;
}

/**
 * The company's buyers in `wanted`, each with its counter item, read by key: one BatchGetItem per
 * 50 buyers (record and counter item side by side), the batches in parallel, so the cost follows
 * the offer's buyers and not the company's. Deleted buyers are simply absent; in id order.
 */
export async function loadRoutingBuyers(companyId: number, wanted: ReadonlySet<number>): Promise<RoutingBuyer[]> {
  const ids = [...wanted].sort((a, b) => a - b);
  const items = await getItems(ids.flatMap((id) => [keys.record(companyId, 'buyers', id), keys.buyerStats(companyId, id)]));
  const records = new Map<number, Record<string, unknown>>();
  const counters = new Map<number, Record<string, unknown>>();
  for (const item of items) {
    if (String(item.sk).startsWith('stats#')) counters.set(buyerIdOfStats(item), item);
    else records.set(Number(item.id), withoutKeys(item));
  }
  return ids.flatMap((id) => {
    const record = records.get(id);
    return record ? [{ record, counters: counters.get(id) }] : [];
  });
}
