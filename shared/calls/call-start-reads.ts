import { callRouterFrom, callRouterKeys } from '../call-config/ivr.js';
import { inboundConfigFrom, inboundResources, visitorHoldKey, type InboundConfig } from '../call-config/inbound-config.js';
import { readKeyed, type KeyedRead } from '../call-config/keyed-reads.js';
import { keys, type Key } from '../db/keys.js';
import { countsEventConsumers, eventConsumerKeys } from '../events/event-consumers.js';
import { getItems, withoutKeys, type StoredRecord } from '../db/records.js';
import { offerLeadOfCaller } from '../leads/lead-calls.js';
import type { LeadRecord } from '../leads/lead-record.js';
import { numberLookupKey, toNumberRoute, type NumberRoute } from '../numbers/lookup.js';
import { liveReservation, type NumberReservation } from '../routing/reservations.js';
import type { RoutingBuyer } from '../routing/route-buyers.js';
import { buyerCountKeys, loadRoutingBuyers, noteBuyerCountFrom, partitionReadFits, queryRoutingBuyers, routingBuyerKeys, routingBuyersFrom, selectedBuyerIds, selectionBuyerIds, selectionGroupIds } from '../routing/router.js';
import { carrierCallKey, getCall, type CallRecord } from './call-store.js';
import { DIAL_RESOURCES, type DialKnown } from './dial-reads.js';
import { RecentMap } from '../recent-map.js';

/**
 * What an inbound call reads before it is routed, in as few round trips as the checks allow
 * (docs/calls.md, "What call start reads"). One BatchGetItem holds the carrier-call lookup (a
 * retried webhook finds its call), the number's lookup item and everything that depends only on
 * the number: the caller's reservation, the offer, traffic source, blacklist entry, visitor hold,
 * the call router lookups, the record counts of the configuration resources, the offer's groups
 * and buyers with their counter items. Beside it go the Queries of the configuration resources
 * the company has records of (keyed-reads.ts) and the caller's offer leads (gsi2). A call router
 * found is read after (only then).
 *
 * Reading the number's items beside its lookup item needs to know where the number leads before
 * reading it: the function remembers per called number the route its lookup item gave (company,
 * offer, traffic source: ids only), and per offer where its selection led (group ids, buyer ids),
 * as the ping remembers its chain (shared/routing/ping-reads.ts). Both are checked against the
 * lookup item, offer and groups read in the same request; when one moved, what it decides is read
 * again after it (one step more, that call only) and nothing read for another route is used.
 * Every item deciding the call (blacklist entry, reservation, caps, counters, limits) is read by
 * this request, never remembered from another: a change applies to the very next call.
 */
export type Arrival =
  /** `known`: what this request read already that the call's instruction needs (dial-reads.ts). */
  | { kind: 'retried'; companyId: number; call: CallRecord; known?: DialKnown }
  | { kind: 'unknown_number' }
  | { kind: 'new'; number: NumberRoute; reads: CallStartReads };

export interface ArrivingCall {
  carrier: string;
  carrierCallId: string;
  /** The called number as the carrier sent it (trimmed). */
  to: string;
  /** The caller's number, normalised; null when it has none. */
  caller: string | null;
  sipHeaders?: Readonly<Record<string, string>>;
  at: Date;
}

/** Per called number: the route its lookup item gave when last read (a hint: checked against the lookup read with it). */
const routes = new RecentMap<string, NumberRoute>(20_000);

function rememberRoute(number: NumberRoute): void {
  routes.set(number.number, number);
}

const sameRoute = (a: NumberRoute, b: NumberRoute) =>
  a.company_id === b.company_id && a.id === b.id && a.offer_id === b.offer_id && a.traffic_source_id === b.traffic_source_id && a.ring_pool_id === b.ring_pool_id;

/** The retried-webhook check, the number lookup and what the number leads to: one round trip when the number's route is remembered. */
export async function readArrival(arriving: ArrivingCall): Promise<Arrival> {
  const { to, caller, sipHeaders, at } = arriving;
  const carrierKey = carrierCallKey(arriving.carrier, arriving.carrierCallId);
  const numberKey = numberLookupKey(to);
  const hinted = routes.get(to);
  let started = hinted ? await readStart(hinted, caller, sipHeaders, [carrierKey, numberKey]) : undefined;
  let item: (key: Key) => Record<string, unknown> | undefined;
  if (started) item = started.item;
  else {
    const items = await getItems([carrierKey, numberKey]);
    item = (key) => items.find((found) => found.pk === key.pk && found.sk === key.sk);
  }
  const lookup = item(carrierKey);
  if (lookup) {
    const companyId = Number(lookup.company_id);
    const call = await getCall(companyId, Number(lookup.id));
    // A retried webhook's dial is built from what was read along the number's route, where it is the call's.
    if (call) return { kind: 'retried', companyId, call, known: started && hinted!.company_id === companyId ? started.dialKnown(call) : undefined };
  }
  const numberItem = item(numberKey);
  if (!numberItem) {
    routes.delete(to);
    return { kind: 'unknown_number' };
  }
  const number = toNumberRoute(to, numberItem);
  rememberRoute(number);
  // The number moved (another offer, traffic source or company): its new route is read now; within the same company only what the old one did not read.
  if (!hinted || !sameRoute(hinted, number)) started = await readStart(number, caller, sipHeaders, [], started);
  return { kind: 'new', number, reads: await started!.finish(at) };
}

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
  /** The company's sip_headers (sent on a SIP buyer's dial; not the incoming call's headers). */
  dialSipHeaders: StoredRecord[];
  /** The offer's selection and buyers as read along its remembered chain (what routing loads from). */
  buyers: StartBuyers;
  /** Whether anything receives the company's events (shared/events/event-consumers.ts): the call's events are staged only then. */
  eventConsumers: boolean;
}

/** The buyers the call may be routed to, as far as the arrival's read holds them. */
export interface StartBuyers {
  /** The offer's buyer ids, groups expanded, from the offer and groups read with the arrival; undefined when they were not (no chain, or its groups changed). */
  offerWanted: Set<number> | undefined;
  /**
   * The buyers of `ids` with their counter items, in id order: those read with the arrival, the others
   * read now (all of them when it read none); remembers where this call's routing led.
   */
  load(ids: ReadonlySet<number>): Promise<RoutingBuyer[]>;
}

/** Per offer: the group ids and buyer ids its selection led to when last read (ids only). */
interface OfferChain {
  groupIds: number[];
  buyerIds: number[];
}

const CHAINS_LIMIT = 5000;
const chains = new RecentMap<string, OfferChain>(CHAINS_LIMIT);
const chainKey = (companyId: number, offerId: number) => `${companyId}#${offerId}`;
/** Ids once each, ascending (BatchGetItem refuses a key asked twice). */
const uniqueSorted = (ids: Iterable<number>) => [...new Set(ids)].sort((a, b) => a - b);
const sameIds = (a: readonly number[], b: readonly number[]) => a.length === b.length && a.every((id, index) => id === b[index]);

function rememberChain(companyId: number, offerId: number, chain: OfferChain): void {
  chains.set(chainKey(companyId, offerId), chain);
}

/**
 * The offer's buyer ids (groups expanded): as read with the arrival when its chain held, else from the
 * offer alone when it names no groups, else with its groups read now (one BatchGetItem).
 */
export async function buyerIdsOfOffer(companyId: number, offer: StoredRecord, read: CallStartReads): Promise<Set<number>> {
  return read.buyers.offerWanted ?? (await selectedBuyerIds(companyId, offer));
}

interface StartRead {
  route: NumberRoute;
  read: KeyedRead;
  offerLead: LeadRecord | undefined;
  item(key: Key): Record<string, unknown> | undefined;
  dialKnown(call: CallRecord): DialKnown;
  finish(at: Date): Promise<CallStartReads>;
}

/**
 * What the call's number, caller and company configure, read side by side with `alongside` (the
 * arrival's lookups); `finish` reads the call router when one was found and assembles the rest.
 */
async function readStart(number: NumberRoute, caller: string | null, sipHeaders: Readonly<Record<string, string>> | undefined, alongside: readonly Key[], prior?: StartRead): Promise<StartRead> {
  const companyId = number.company_id;
  // Read for the number's old route in the same company: what it read is not read again.
  const earlier = prior && prior.route.company_id === companyId ? prior : undefined;
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
  const consumerKeys = eventConsumerKeys(companyId);
  const itemKeys = [...alongside, reservationKey, offerKey, trafficSourceKey, blacklistKey, holdKey, routerKeys.byNumber, routerKeys.byOffer, ...groupKeys, ...buyerKeys, ...consumerKeys].filter((key) => key !== undefined);
  const [read, offerLead, partitionBuyers] = await Promise.all([
    readKeyed(companyId, itemKeys, [...inboundResources(sipHeaders), ...DIAL_RESOURCES], earlier?.read),
    earlier && earlier.route.offer_id === number.offer_id ? earlier.offerLead : offerLeadOfCaller(companyId, caller, number.offer_id),
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
      const prefetched = partitionBuyers
        ? partitionBuyers.filter((buyer) => known.has(Number(buyer.record.id)))
        : routingBuyersFrom(known, [...known].flatMap((id) => [...present(keys.record(companyId, 'buyers', id)), ...present(keys.buyerStats(companyId, id))]));
      // Only buyers the remembered chain did not name (a changed selection, another reservation): never one read above.
      const late = missing.size ? await loadRoutingBuyers(companyId, missing) : [];
      if (offer) rememberChain(companyId, Number(offer.id), { groupIds: uniqueSorted(selectionGroupIds(offer)), buyerIds: uniqueSorted([...(offerWanted ?? []), ...ids]) });
      return [...prefetched, ...late].sort((a, b) => Number(a.record.id) - Number(b.record.id));
    },
  };
  if (!wholePartition) noteBuyerCountFrom(companyId, buyerCountKeys(companyId, chain?.buyerIds.length ?? 0).flatMap(present));
  return {
    route: number,
    read,
    offerLead,
    item: read.item,
    dialKnown(call: CallRecord): DialKnown {
      const attempts = Array.isArray(call.attempts) ? (call.attempts as Array<{ buyer_id: number | null }>) : [];
      const buyerId = attempts[attempts.length - 1]?.buyer_id;
      const buyer = typeof buyerId === 'number' ? record(keys.record(companyId, 'buyers', buyerId)) : undefined;
      return {
        ...(buyer ? { buyer } : {}),
        ...(call.offer_id === number.offer_id ? { offer: offer ?? null } : {}),
        recordingRules: read.rows('call_recording_rules'),
        sipHeaders: read.rows('sip_headers'),
      };
    },
    async finish(at: Date): Promise<CallStartReads> {
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
        dialSipHeaders: read.rows('sip_headers'),
        buyers,
        eventConsumers: countsEventConsumers(consumerKeys.map(read.item)),
      };
    },
  };
}
