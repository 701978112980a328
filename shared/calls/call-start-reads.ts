import { callRouterFrom, callRouterKeys } from '../call-config/ivr.js';
import { inboundConfigFrom, inboundResources, visitorHoldKey, type InboundConfig } from '../call-config/inbound-config.js';
import { readKeyed } from '../call-config/keyed-reads.js';
import { keys, type Key } from '../db/keys.js';
import { getItems, withoutKeys, type StoredRecord } from '../db/records.js';
import { offerLeadOfCaller } from '../leads/lead-calls.js';
import type { LeadRecord } from '../leads/lead-record.js';
import { numberLookupKey, toNumberRoute, type NumberRoute } from '../numbers/lookup.js';
import { liveReservation, type NumberReservation } from '../routing/reservations.js';
import type { RoutingBuyer } from '../routing/route-buyers.js';
import { buyerCountKeys, loadRoutingBuyers, noteBuyerCountFrom, partitionReadFits, queryRoutingBuyers, routingBuyerKeys, routingBuyersFrom, selectedBuyerIds, selectionBuyerIds, selectionGroupIds } from '../routing/router.js';
import { carrierCallKey, getCall, type CallRecord } from './call-store.js';

/**
 * What an inbound call reads before it is routed, in as few round trips as the checks allow
 * (docs/calls.md, "What call start reads"):
 *   1. the carrier-call lookup (a retried webhook finds its call) and the number lookup: one BatchGetItem;
 *   2. everything that depends only on the number, side by side: one BatchGetItem of the keyed
 *      items (reservation, offer, traffic source, blacklist entry, visitor hold, the call router
 *      lookups, the record counts of the configuration resources), the Queries of the configuration
 *      resources the company has records of (keyed-reads.ts), and the caller's offer leads (gsi2);
 *   3. only when a call router lookup was found: the router.
 * The offer's buyers and their counters go into the BatchGetItem of step 2 as well, when this
 * function remembers where the offer's selection led (its group ids and buyer ids: never what it
 * read, as the ping's chain in shared/routing/ping-reads.ts). The selection is checked against
 * the offer and groups read in the same request; when it moved, the buyers are read after it
 * (one step more, that call only). Every item deciding the call (blacklist, reservation, limits,
 * the buyers and counters) is read by this request, never remembered from another.
 */
export type Arrival =
  | { kind: 'retried'; companyId: number; call: CallRecord }
  | { kind: 'unknown_number' }
  | { kind: 'new'; number: NumberRoute };

/** Step 1: the retried-webhook check beside the number lookup. */
export async function readArrival(carrier: string, carrierCallId: string, to: string): Promise<Arrival> {
  const carrierKey = carrierCallKey(carrier, carrierCallId);
  const numberKey = numberLookupKey(to);
  const items = await getItems([carrierKey, numberKey]);
  const lookup = items.find((item) => item.pk === carrierKey.pk && item.sk === carrierKey.sk);
  if (lookup) {
    const companyId = Number(lookup.company_id);
    const call = await getCall(companyId, Number(lookup.id));
    if (call) return { kind: 'retried', companyId, call };
  }
  const numberItem = items.find((item) => item.pk === numberKey.pk && item.sk === numberKey.sk);
  return numberItem ? { kind: 'new', number: toNumberRoute(to, numberItem) } : { kind: 'unknown_number' };
}

/** The recording rules are read here too: the first buyer's dial is built from them without another read. */
const DIAL_RESOURCES = ['call_recording_rules'];

export interface CallStartReads {
  reservation: NumberReservation | undefined;
  offer: StoredRecord | undefined;
  trafficSource: StoredRecord | undefined;
  blacklisted: boolean;
  offerLead: LeadRecord | undefined;
  inbound: InboundConfig;
  /** The enabled call router of the number, else of its offer. */
  numberRouter: StoredRecord | undefined;
  recordingRules: StoredRecord[];
  /** The offer's selection and buyers as read along its remembered chain (what routing loads from). */
  buyers: StartBuyers;
}

/** The buyers the call may be routed to, as far as step 2 read them. */
export interface StartBuyers {
  /** The offer's buyer ids, groups expanded, from the offer and groups read in step 2; undefined when they were not (no chain, or its groups changed). */
  offerWanted: Set<number> | undefined;
  /**
   * The buyers of `ids` with their counter items, in id order: those read in step 2, the others
   * read now (all of them when step 2 read none); remembers where this call's routing led.
   */
  load(ids: ReadonlySet<number>): Promise<RoutingBuyer[]>;
}

/** Per offer: the group ids and buyer ids its selection led to when last read (ids only). */
interface OfferChain {
  groupIds: number[];
  buyerIds: number[];
}

const CHAINS_LIMIT = 5000;
const chains = new Map<string, OfferChain>();
const chainKey = (companyId: number, offerId: number) => `${companyId}#${offerId}`;
/** Ids once each, ascending (BatchGetItem refuses a key asked twice). */
const uniqueSorted = (ids: Iterable<number>) => [...new Set(ids)].sort((a, b) => a - b);
const sameIds = (a: readonly number[], b: readonly number[]) => a.length === b.length && a.every((id, index) => id === b[index]);

function rememberChain(companyId: number, offerId: number, chain: OfferChain): void {
  const key = chainKey(companyId, offerId);
  chains.delete(key);
  chains.set(key, chain);
  if (chains.size > CHAINS_LIMIT) chains.delete(chains.keys().next().value!);
}

/**
 * The offer's buyer ids (groups expanded): as read in step 2 when its chain held, else from the
 * offer alone when it names no groups, else with its groups read now (one BatchGetItem).
 */
export async function buyerIdsOfOffer(companyId: number, offer: StoredRecord, read: CallStartReads): Promise<Set<number>> {
  return read.buyers.offerWanted ?? (await selectedBuyerIds(companyId, offer));
}

/** Step 2 (and 3 when a router is configured): what the call's number, caller and company configure. */
export async function readCallStart(companyId: number, number: NumberRoute, caller: string | null, sipHeaders: Readonly<Record<string, string>> | undefined, at: Date): Promise<CallStartReads> {
  const reservationKey = caller ? keys.numberReservation(companyId, number.number, caller) : undefined;
  const offerKey = number.offer_id !== null ? keys.record(companyId, 'offers', number.offer_id) : undefined;
  const trafficSourceKey = number.traffic_source_id !== null ? keys.record(companyId, 'traffic_sources', number.traffic_source_id) : undefined;
  const blacklistKey = caller ? keys.blacklist(companyId, caller) : undefined;
  const holdKey = visitorHoldKey(companyId, number);
  const routerKeys = callRouterKeys(companyId, number.id, number.offer_id);
  const chain = number.offer_id !== null ? chains.get(chainKey(companyId, number.offer_id)) : undefined;
  const groupKeys = (chain?.groupIds ?? []).map((id) => keys.record(companyId, 'buyer_groups', id));
  // A large share of the company's buyers is read as its whole partition, beside the keys (router.ts says why).
  const wholePartition = chain !== undefined && partitionReadFits(companyId, chain.buyerIds.length);
  const buyerKeys = chain && !wholePartition ? [...routingBuyerKeys(companyId, chain.buyerIds), ...buyerCountKeys(companyId, chain.buyerIds.length)] : [];
  const itemKeys = [reservationKey, offerKey, trafficSourceKey, blacklistKey, holdKey, routerKeys.byNumber, routerKeys.byOffer, ...groupKeys, ...buyerKeys].filter((key) => key !== undefined);
  const [read, offerLead, partitionBuyers] = await Promise.all([
    readKeyed(companyId, itemKeys, [...inboundResources(sipHeaders), ...DIAL_RESOURCES]),
    offerLeadOfCaller(companyId, caller, number.offer_id),
    wholePartition ? queryRoutingBuyers(companyId, new Set(chain.buyerIds)) : undefined,
  ]);
  const record = (key: typeof offerKey) => {
    const item = key ? read.item(key) : undefined;
    return item ? withoutKeys(item) : undefined;
  };
  const offer = record(offerKey);
  const present = (key: Key) => {
    const item = read.item(key);
    return item ? [item] : [];
  };
  const readIds = new Set(chain?.buyerIds ?? []);
  const groupsHeld = chain !== undefined && offer !== undefined && sameIds(uniqueSorted(selectionGroupIds(offer)), chain.groupIds);
  const offerWanted = offer && groupsHeld ? selectionBuyerIds(offer, groupKeys.flatMap(present)) : offer && selectionGroupIds(offer).length === 0 ? selectionBuyerIds(offer, []) : undefined;
  const buyers: StartBuyers = {
    offerWanted,
    async load(ids) {
      const missing = new Set([...ids].filter((id) => !readIds.has(id)));
      const known = new Set([...ids].filter((id) => readIds.has(id)));
      const [prefetched, late] = await Promise.all([
        partitionBuyers
          ? partitionBuyers.filter((buyer) => known.has(Number(buyer.record.id)))
          : routingBuyersFrom(known, [...known].flatMap((id) => [...present(keys.record(companyId, 'buyers', id)), ...present(keys.buyerStats(companyId, id))])),
        // Only buyers the remembered chain did not name (a changed selection, another reservation): never one read above.
        missing.size ? loadRoutingBuyers(companyId, missing) : [],
      ]);
      if (offer) rememberChain(companyId, Number(offer.id), { groupIds: uniqueSorted(selectionGroupIds(offer)), buyerIds: uniqueSorted([...(offerWanted ?? []), ...ids]) });
      return [...prefetched, ...late].sort((a, b) => Number(a.record.id) - Number(b.record.id));
    },
  };
  if (!wholePartition) noteBuyerCountFrom(companyId, buyerCountKeys(companyId, chain?.buyerIds.length ?? 0).flatMap(present));
  const numberRouter = await callRouterFrom(companyId, { byNumber: read.item(routerKeys.byNumber), byOffer: routerKeys.byOffer ? read.item(routerKeys.byOffer) : undefined });
  return {
    reservation: reservationKey ? liveReservation(read.item(reservationKey), at) : undefined,
    offer,
    trafficSource: record(trafficSourceKey),
    blacklisted: blacklistKey ? read.item(blacklistKey) !== undefined : false,
    offerLead,
    inbound: inboundConfigFrom(number, sipHeaders, { rows: read.rows, visitorHold: read.item(holdKey) }, at),
    numberRouter,
    recordingRules: read.rows('call_recording_rules'),
    buyers,
  };
}
