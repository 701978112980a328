import { callRouterFrom, callRouterKeys } from '../call-config/ivr.js';
import { inboundConfigFrom, inboundResources, visitorHoldKey, type InboundConfig } from '../call-config/inbound-config.js';
import { readKeyed } from '../call-config/keyed-reads.js';
import { keys } from '../db/keys.js';
import { getItems, withoutKeys, type StoredRecord } from '../db/records.js';
import { offerLeadOfCaller } from '../leads/lead-calls.js';
import type { LeadRecord } from '../leads/lead-record.js';
import { numberLookupKey, toNumberRoute, type NumberRoute } from '../numbers/lookup.js';
import { liveReservation, type NumberReservation } from '../routing/reservations.js';
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
 * Every item deciding the call (blacklist, reservation, limits) is read by this request, never
 * remembered from another.
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
}

/** Step 2 (and 3 when a router is configured): what the call's number, caller and company configure. */
export async function readCallStart(companyId: number, number: NumberRoute, caller: string | null, sipHeaders: Readonly<Record<string, string>> | undefined, at: Date): Promise<CallStartReads> {
  const reservationKey = caller ? keys.numberReservation(companyId, number.number, caller) : undefined;
  const offerKey = number.offer_id !== null ? keys.record(companyId, 'offers', number.offer_id) : undefined;
  const trafficSourceKey = number.traffic_source_id !== null ? keys.record(companyId, 'traffic_sources', number.traffic_source_id) : undefined;
  const blacklistKey = caller ? keys.blacklist(companyId, caller) : undefined;
  const holdKey = visitorHoldKey(companyId, number);
  const routerKeys = callRouterKeys(companyId, number.id, number.offer_id);
  const itemKeys = [reservationKey, offerKey, trafficSourceKey, blacklistKey, holdKey, routerKeys.byNumber, routerKeys.byOffer].filter((key) => key !== undefined);
  const [read, offerLead] = await Promise.all([readKeyed(companyId, itemKeys, [...inboundResources(sipHeaders), ...DIAL_RESOURCES]), offerLeadOfCaller(companyId, caller, number.offer_id)]);
  const record = (key: typeof offerKey) => {
    const item = key ? read.item(key) : undefined;
    return item ? withoutKeys(item) : undefined;
  };
  const numberRouter = await callRouterFrom(companyId, { byNumber: read.item(routerKeys.byNumber), byOffer: routerKeys.byOffer ? read.item(routerKeys.byOffer) : undefined });
  return {
    reservation: reservationKey ? liveReservation(read.item(reservationKey), at) : undefined,
    offer: record(offerKey),
    trafficSource: record(trafficSourceKey),
    blacklisted: blacklistKey ? read.item(blacklistKey) !== undefined : false,
    offerLead,
    inbound: inboundConfigFrom(number, sipHeaders, { rows: read.rows, visitorHold: read.item(holdKey) }, at),
    numberRouter,
    recordingRules: read.rows('call_recording_rules'),
  };
}
