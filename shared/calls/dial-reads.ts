import { readKeyed } from '../call-config/keyed-reads.js';
import { keys } from '../db/keys.js';
import { withoutKeys } from '../db/records.js';
import type { RoutingBuyer } from '../routing/route-buyers.js';
import { buyerCountKeys, loadRoutingBuyers, noteBuyerCountFrom, partitionReadFits, routingBuyerKeys, routingBuyersFrom } from '../routing/router.js';

/**
 * What a buyer's dial is built from: the buyer, the call's offer (its hold playlist) and the
 * company's recording rules. A step that read them already (call start: the routing read the
 * buyer, the call start reads the offer and rules) hands them in and nothing is read again;
 * whatever it did not is read in one round trip (keyed-reads.ts: the buyer and offer by key, the
 * counts of the recording rules and SIP headers beside them, a Query only where the company has
 * records).
 */
type Row = Record<string, unknown>;

export interface DialKnown {
  /** The ringing attempt's buyer as read (used when its id is the attempt's). */
  buyer?: Row;
  /** The call's offer as read: null when the call has none or it is gone. */
  offer?: Row | null;
  /** The company's call_recording_rules as read. */
  recordingRules?: readonly Row[];
  /** The company's sip_headers as read. */
  sipHeaders?: readonly Row[];
}

export interface DialInputs {
  buyer: Row | undefined;
  offer: Row | null;
  recordingRules: readonly Row[];
  sipHeaders: readonly Row[];
}

/** The configuration resources a dial consults, read whole (keyed-reads.ts: a Query only where the company has records). */
export const DIAL_RESOURCES = ['call_recording_rules', 'sip_headers'] as const;

export async function dialInputs(companyId: number, offerId: number | null, buyerId: number, known: DialKnown = {}): Promise<DialInputs> {
  const knownBuyer = known.buyer && Number(known.buyer.id) === buyerId ? known.buyer : undefined;
  const buyerKey = knownBuyer ? undefined : keys.record(companyId, 'buyers', buyerId);
  const offerKey = known.offer !== undefined || offerId === null ? undefined : keys.record(companyId, 'offers', offerId);
  const resources = DIAL_RESOURCES.filter((resource) => (resource === 'call_recording_rules' ? !known.recordingRules : !known.sipHeaders));
  if (!buyerKey && !offerKey && resources.length === 0) return { buyer: knownBuyer, offer: known.offer ?? null, recordingRules: known.recordingRules ?? [], sipHeaders: known.sipHeaders ?? [] };
  const read = await readKeyed(companyId, [buyerKey, offerKey].filter((key) => key !== undefined), resources);
  const record = (key: typeof buyerKey) => {
    const item = key ? read.item(key) : undefined;
    return item ? withoutKeys(item) : undefined;
  };
  return {
    buyer: knownBuyer ?? record(buyerKey),
    offer: known.offer !== undefined ? known.offer : (record(offerKey) ?? null),
    recordingRules: known.recordingRules ?? read.rows('call_recording_rules'),
    sipHeaders: known.sipHeaders ?? read.rows('sip_headers'),
  };
}

/** The hold playlist played before the dial (shared/call-config/call-sounds.ts); null: none. */
export function holdPlaylistOf(offer: Row | null): number | null {
  return typeof offer?.hold_sound_playlist_id === 'number' ? offer.hold_sound_playlist_id : null;
}

/**
 * What a fall-through reads: the buyers it may claim next with their counter items (as
 * loadRoutingBuyers gives them) and what their dial needs besides the buyer (the offer, the
 * recording rules, the SIP headers), all in one round trip (one BatchGetItem, keyed-reads.ts).
 * A large offer whose buyers are better read by the partition's Query (router.ts) reads them so,
 * beside the rest.
 */
export async function fallThroughReads(companyId: number, offerId: number | null, buyerIds: ReadonlySet<number>): Promise<{ buyers: RoutingBuyer[]; dial: DialKnown }> {
  const offerKey = offerId === null ? undefined : keys.record(companyId, 'offers', offerId);
  const byPartition = partitionReadFits(companyId, buyerIds.size);
  const buyerKeys = byPartition ? [] : [...routingBuyerKeys(companyId, buyerIds), ...buyerCountKeys(companyId, buyerIds.size)];
  const [read, partitionBuyers] = await Promise.all([
    readKeyed(companyId, [...(offerKey ? [offerKey] : []), ...buyerKeys], DIAL_RESOURCES),
    byPartition ? loadRoutingBuyers(companyId, buyerIds) : undefined,
  ]);
  const offer = offerKey ? read.item(offerKey) : undefined;
  const items = buyerKeys.map((key) => read.item(key)).filter((item) => item !== undefined);
  if (!byPartition) noteBuyerCountFrom(companyId, items);
  return {
    buyers: partitionBuyers ?? routingBuyersFrom(buyerIds, items),
    dial: { offer: offer ? withoutKeys(offer) : null, recordingRules: read.rows('call_recording_rules'), sipHeaders: read.rows('sip_headers') },
  };
}
