import { keys, type Key } from '../db/keys.js';
import { buyerIdOfStats } from '../buyers/counters.js';
import { queryPages } from '../db/query.js';
import { getItems, getRecords, withoutKeys } from '../db/records.js';
import type { RoutingBuyer } from './route-buyers.js';
import { RecentMap } from '../recent-map.js';

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
 * Reading by key bills every item as at least half a read unit, however small; a Query of the
 * company's buyers partition bills the bytes it reads. So when an offer holds a large share of
 * its company's buyers, the whole partition costs less (a 1,000-buyer offer in a 1,000-buyer
 * company: about 120 read units against 750). Small offers always read by key, so their cost
 * never grows with the company. The two reads give the same buyers: this is a cost choice only.
 */
const PARTITION_READ_MIN_BUYERS = 100;
/** The partition is read when the offer holds at least this share (1/8) of the company's buyers. */
const PARTITION_READ_SHARE = 8;
/**
 * ...and only while the partition fits in about one Query page (1 MB: some 1,000 buyers with
 * their counters): pages are read one after the other, and a ping keeps its one round trip
 * (a 1,000-buyer offer in a 3,000-buyer company: 4 pages, 392 read units and 3x the time, against
 * one round of BatchGets and 752 units by key).
 */
const PARTITION_READ_MAX_BUYERS = 1000;

/** Read the whole buyers partition rather than the wanted buyers by key? Pure. */
export function readsBuyersPartition(wantedCount: number, companyBuyerCount: number | undefined): boolean {
  return (
    companyBuyerCount !== undefined &&
    companyBuyerCount <= PARTITION_READ_MAX_BUYERS &&
    wantedCount >= PARTITION_READ_MIN_BUYERS &&
    wantedCount * PARTITION_READ_SHARE >= companyBuyerCount
  );
}

/** Each company's buyer count as last read in this function (a cost hint: stale is harmless). */
const buyerCounts = new RecentMap<number, number>(10_000);

function noteBuyerCount(companyId: number, count: number): void {
  buyerCounts.set(companyId, count);
}

/** Should this read of `wanted` buyers take the whole partition (see readsBuyersPartition)? */
export function partitionReadFits(companyId: number, wantedCount: number): boolean {
  return readsBuyersPartition(wantedCount, buyerCounts.get(companyId));
}

/**
 * The key of the company's buyer count (its sequence item), to read beside a large offer's buyers
 * so the next read can choose; none for small offers, which always read by key.
 */
export function buyerCountKeys(companyId: number, wantedCount: number): Key[] {
  return wantedCount >= PARTITION_READ_MIN_BUYERS ? [keys.sequence(companyId, 'buyers')] : [];
}

/** Notes the buyer count among items read with buyerCountKeys. */
export function noteBuyerCountFrom(companyId: number, items: readonly Record<string, unknown>[]): void {
  const counter = keys.sequence(companyId, 'buyers');
  const item = items.find((candidate) => candidate.pk === counter.pk && candidate.sk === counter.sk);
  if (item) noteBuyerCount(companyId, Number(item.count ?? 0));
}

/** The wanted buyers and their counter items from one Query of the company's buyers partition (noting its size). */
export async function queryRoutingBuyers(companyId: number, wanted: ReadonlySet<number>): Promise<RoutingBuyer[]> {
  const items: Record<string, unknown>[] = [];
  let records = 0;
  for await (const page of queryPages({ KeyConditionExpression: 'pk = :pk', ExpressionAttributeValues: { ':pk': keys.resourcePartition(companyId, 'buyers') } })) {
    for (const item of page) {
      if (String(item.sk).startsWith('stats#')) {
        if (wanted.has(buyerIdOfStats(item))) items.push(item);
      } else {
        records += 1;
        if (wanted.has(Number(item.id))) items.push(item);
      }
    }
  }
  noteBuyerCount(companyId, records);
  return routingBuyersFrom(wanted, items);
}

/**
 * The company's buyers in `wanted`, each with its counter item: by key (one BatchGetItem per 50
 * buyers, the batches in parallel), so the cost follows the offer's buyers and not the
 * company's, unless the offer holds so much of the company that one Query of the partition
 * costs less (readsBuyersPartition). Deleted buyers are simply absent; in id order.
 */
export async function loadRoutingBuyers(companyId: number, wanted: ReadonlySet<number>): Promise<RoutingBuyer[]> {
  if (partitionReadFits(companyId, wanted.size)) return queryRoutingBuyers(companyId, wanted);
  const items = await getItems([...routingBuyerKeys(companyId, wanted), ...buyerCountKeys(companyId, wanted.size)]);
  noteBuyerCountFrom(companyId, items);
  return routingBuyersFrom(wanted, items);
}
