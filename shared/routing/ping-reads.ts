import { isBlacklisted } from '../contacts/blacklist.js';
import { keys, type Key } from '../db/keys.js';
import { getItems, getLookup, getRecord, getRecords, withoutKeys, type StoredRecord } from '../db/records.js';
import { noWebhook } from './inbound.js';
import type { RoutingBuyer } from './route-buyers.js';
import { buyerCountKeys, loadRoutingBuyers, noteBuyerCountFrom, partitionReadFits, queryRoutingBuyers, routingBuyerKeys, routingBuyersFrom, selectionBuyerIds, selectionGroupIds, selectsBuyers } from './router.js';
import { RecentMap } from '../recent-map.js';

/**
 * What a ping reads before its decision, in as few round trips as correctness allows.
 *
 * The chain vanity name → webhook → offer → groups → buyers is sequential by nature (each read
 * names the next). So the function remembers, per vanity name, WHERE that chain led (company,
 * webhook id, offer id, group ids, buyer ids) — never what it read. A later ping reads every link
 * of the remembered chain, the buyers and their counters in one BatchGet (side by side with the
 * blacklist GetItem): one round trip. Then it checks the chain against what it just read; if any
 * link moved (vanity renamed, webhook or offer changed its selection, a group gained a buyer that
 * was not read), it falls back to reading the chain link by link. The decision always uses items
 * read by this request: a change applies to the next ping, with no cache delay.
 */
export interface PingReads {
  webhook: StoredRecord;
  /** Buyer ids the webhook (or else its offer) names, groups expanded. */
  wanted: Set<number>;
  buyers: RoutingBuyer[];
  /** The caller given is on the company blacklist (read by this request, never remembered). */
  blacklisted: boolean;
}

interface Chain {
  companyId: number;
  webhookId: number;
  /** The offer whose selection applies; undefined when the webhook names its own buyers. */
  offerId: number | undefined;
  groupIds: number[];
  buyerIds: number[];
}

/** Vanity names remembered at most (oldest forgotten first): a few bytes each. */
const chains = new RecentMap<string, Chain>(2000);

function remember(vanity: string, chain: Chain): void {
  chains.set(vanity, chain);
}

const vanityKey = (vanity: string): Key => keys.globalLookup('inbound_webhooks', 'vanity_uri', vanity);
const keyText = (key: { pk?: unknown; sk?: unknown }) => `${String(key.pk)}\n${String(key.sk)}`;
const sameIds = (a: readonly number[], b: readonly number[]) => a.length === b.length && a.every((id, index) => id === b[index]);
/** Ids once each, ascending (BatchGetItem refuses a key asked twice). */
const uniqueSorted = (ids: Iterable<number>) => [...new Set(ids)].sort((a, b) => a - b);

/** Only buyer pings route buyers; other webhook types need the webhook alone. */
const routesBuyers = (webhook: StoredRecord) => webhook.webhook_type === 'check_for_available_buyer';

/** The webhook, its selection and buyers, and the blacklist check of `caller` (a normalised number, if any). */
export async function readForPing(vanity: string, caller: string | undefined): Promise<PingReads> {
  const chain = chains.get(vanity);
  const known = chain ? await readAlongChain(vanity, chain, caller) : undefined;
  if (known) return known;
  chains.delete(vanity);
  return readLinkByLink(vanity, caller);
}

/** One round trip along a remembered chain; undefined when the chain no longer holds. */
async function readAlongChain(vanity: string, chain: Chain, caller: string | undefined): Promise<PingReads | undefined> {
  const { companyId } = chain;
  const webhookKey = keys.record(companyId, 'inbound_webhooks', chain.webhookId);
  const offerKey = chain.offerId === undefined ? undefined : keys.record(companyId, 'offers', chain.offerId);
  const groupKeys = chain.groupIds.map((id) => keys.record(companyId, 'buyer_groups', id));
  // A large share of the company's buyers is read as its whole partition, beside the links (router.ts says why).
  const wholePartition = partitionReadFits(companyId, chain.buyerIds.length);
  const buyerKeys = wholePartition ? [] : [...routingBuyerKeys(companyId, chain.buyerIds), ...buyerCountKeys(companyId, chain.buyerIds.length)];
  const [items, blacklisted, partitionBuyers] = await Promise.all([
    getItems([vanityKey(vanity), webhookKey, ...(offerKey ? [offerKey] : []), ...groupKeys, ...buyerKeys]),
    caller ? isBlacklisted(companyId, caller) : Promise.resolve(false),
    wholePartition ? queryRoutingBuyers(companyId, new Set(chain.buyerIds)) : undefined,
  ]);
  if (!wholePartition) noteBuyerCountFrom(companyId, items);
  const byKey = new Map(items.map((item) => [keyText(item), item]));
  const lookup = byKey.get(keyText(vanityKey(vanity)));
  if (!lookup || Number(lookup.company_id) !== companyId || Number(lookup.id) !== chain.webhookId) return undefined;
  const webhookItem = byKey.get(keyText(webhookKey));
  if (!webhookItem) return undefined;
  const webhook = withoutKeys(webhookItem);
  if (!routesBuyers(webhook)) return undefined;
  const offerId = selectsBuyers(webhook) ? undefined : typeof webhook.offer_id === 'number' ? webhook.offer_id : undefined;
  if (offerId !== chain.offerId) return undefined;
  const offerItem = offerKey ? byKey.get(keyText(offerKey)) : undefined;
  const selection = offerId === undefined ? webhook : offerItem ? withoutKeys(offerItem) : undefined;
  const groupIds = selection ? uniqueSorted(selectionGroupIds(selection)) : [];
  if (!sameIds(groupIds, chain.groupIds)) return undefined;
  const groups = groupKeys.flatMap((key) => {
    const group = byKey.get(keyText(key));
    return group ? [group] : [];
  });
  const wanted = selection ? selectionBuyerIds(selection, groups) : new Set<number>();
  const read = new Set(chain.buyerIds);
  if ([...wanted].some((id) => !read.has(id))) return undefined;
  const buyersPartition = keys.resourcePartition(companyId, 'buyers');
  const buyers = partitionBuyers
    ? partitionBuyers.filter((buyer) => wanted.has(Number(buyer.record.id)))
    : routingBuyersFrom(wanted, items.filter((item) => item.pk === buyersPartition));
  return { webhook, wanted, buyers, blacklisted };
}

/** The chain read link by link (the first ping of a vanity name, or after a change), then remembered. */
async function readLinkByLink(vanity: string, caller: string | undefined): Promise<PingReads> {
  const lookup = await getLookup(vanityKey(vanity));
  if (!lookup) throw noWebhook(vanity);
  const companyId = lookup.company_id;
  const [webhook, blacklisted] = await Promise.all([
    getRecord(companyId, 'inbound_webhooks', lookup.id),
    caller ? isBlacklisted(companyId, caller) : Promise.resolve(false),
  ]);
  if (!webhook) throw noWebhook(vanity);
  if (!routesBuyers(webhook)) return { webhook, wanted: new Set(), buyers: [], blacklisted };
  const offerId = selectsBuyers(webhook) ? undefined : typeof webhook.offer_id === 'number' ? webhook.offer_id : undefined;
  const selection = offerId === undefined ? webhook : await getRecord(companyId, 'offers', offerId);
  const groupIds = selection ? uniqueSorted(selectionGroupIds(selection)) : [];
  const wanted = selection ? selectionBuyerIds(selection, groupIds.length ? await getRecords(companyId, 'buyer_groups', groupIds) : []) : new Set<number>();
  const buyers = wanted.size ? await loadRoutingBuyers(companyId, wanted) : [];
  remember(vanity, { companyId, webhookId: Number(webhook.id), offerId, groupIds, buyerIds: uniqueSorted(wanted) });
  return { webhook, wanted, buyers, blacklisted };
}
