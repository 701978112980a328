import { keys } from '../db/keys.js';
import { queryPages } from '../db/query.js';
import { getRecords, withoutKeys } from '../db/records.js';
import type { RoutingBuyer } from './route-buyers.js';

/**
 * The I/O around the routing decision. Every buyer of the company and its counters come from
 * ONE Query of the buyers partition (records and `stats#` counter items share it), however many
 * buyers there are, apart from DynamoDB's own 1 MB result pages.
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

/** The company's buyers in `wanted`, each with its counter item, from one Query. */
export async function loadRoutingBuyers(companyId: number, wanted: ReadonlySet<number>, stats?: { queries: number }): Promise<RoutingBuyer[]> {
  const records = new Map<number, Record<string, unknown>>();
  const counters = new Map<number, Record<string, unknown>>();
  for await (const items of queryPages({ KeyConditionExpression: 'pk = :pk', ExpressionAttributeValues: { ':pk': keys.resourcePartition(companyId, 'buyers') } })) {
    if (stats) stats.queries += 1;
    for (const item of items) {
      const sk = String(item.sk);
      if (sk.startsWith('stats#')) {
        const id = Number(sk.slice('stats#'.length));
        if (wanted.has(id)) counters.set(id, item);
      } else if (wanted.has(Number(item.id))) {
        records.set(Number(item.id), withoutKeys(item));
      }
    }
  }
  return [...records.entries()].map(([id, record]) => ({ record, counters: counters.get(id) }));
}
