import { keys, type Key } from '../db/keys.js';
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

/** The buyer groups a selection names. */
export function selectionGroupIds(selection: BuyerSelection): number[] {
  return ids(selection.buyer_group_ids);
}

/** The buyer ids a selection names, given its groups as read: its buyers plus their members. */
export function selectionBuyerIds(selection: BuyerSelection, groups: readonly Record<string, unknown>[]): Set<number> {
  const selected = new Set(ids(selection.buyer_ids));
  for (const group of groups) for (const id of ids(group.buyer_ids)) selected.add(id);
  return selected;
}

/** The buyer ids a selection names: its buyers plus the members of its groups (one BatchGet). */
export async function selectedBuyerIds(companyId: number, selection: BuyerSelection): Promise<Set<number>> {
  const groupIds = selectionGroupIds(selection);
  return selectionBuyerIds(selection, groupIds.length ? await getRecords(companyId, 'buyer_groups', groupIds) : []);
}

/** The keys of the buyers' records and counter items, side by side. */
export function routingBuyerKeys(companyId: number, buyerIds: Iterable<number>): Key[] {
  return [...buyerIds].flatMap((id) => [keys.record(companyId, 'buyers', id), keys.buyerStats(companyId, id)]);
}

/** The routing buyers among read items (records and `stats#` items), in id order; absent buyers are skipped. */
export function routingBuyersFrom(buyerIds: Iterable<number>, items: readonly Record<string, unknown>[]): RoutingBuyer[] {
  const records = new Map<number, Record<string, unknown>>();
  const counters = new Map<number, Record<string, unknown>>();
  for (const item of items) {
    const sk = String(item.sk);
    if (sk.startsWith('stats#')) counters.set(buyerIdOfStats(item), item);
    else if (typeof item.pk === 'string' && item.pk.endsWith('#buyers')) records.set(Number(item.id), withoutKeys(item));
  }
  return [...buyerIds]
    .sort((a, b) => a - b)
    .flatMap((id) => {
      const record = records.get(id);
      return record ? [{ record, counters: counters.get(id) }] : [];
    });
}

/**
 * The company's buyers in `wanted`, each with its counter item, read by key: one BatchGetItem per
 * 50 buyers (record and counter item side by side), the batches in parallel, so the cost follows
 * the offer's buyers and not the company's. Deleted buyers are simply absent; in id order.
 */
export async function loadRoutingBuyers(companyId: number, wanted: ReadonlySet<number>): Promise<RoutingBuyer[]> {
  return routingBuyersFrom(wanted, await getItems(routingBuyerKeys(companyId, wanted)));
}
