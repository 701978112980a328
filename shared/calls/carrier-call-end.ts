import { readKeyed } from '../call-config/keyed-reads.js';
import { getLookup } from '../db/records.js';
import { countsEventConsumers, eventConsumerKeys } from '../events/event-consumers.js';
import { finishCall, type CallEnding } from './call-flow.js';
import { callKey, carrierCallKey, storedCall } from './call-store.js';

/**
 * The carrier's final status of a call (the `status` webhook): the call is found by the carrier's
 * call id, then read (strongly consistent: as the last webhook left it) beside the company's
 * traffic source payout rules, which do not depend on the call, only on its company: one
 * BatchGetItem with the rules' record count where the company had none when last seen, the
 * rules' Query beside it otherwise (shared/call-config/keyed-reads.ts), and the company's event
 * consumer counts (shared/events/event-consumers.ts). Ended with all of it as read:
 * no record is read twice and the rules cost no step of their own. False when no such call, or it
 * had ended already.
 */
export async function finishCarrierCall(carrier: string, carrierCallId: string, ending: Omit<CallEnding, 'read' | 'offerConversions'>): Promise<boolean> {
  const lookup = await getLookup(carrierCallKey(carrier, carrierCallId));
  if (!lookup) return false;
  const key = callKey(lookup.company_id, lookup.id);
  const consumerKeys = eventConsumerKeys(lookup.company_id);
  const read = await readKeyed(lookup.company_id, [key, ...consumerKeys], ['offer_conversions'], undefined, { consistent: true });
  const item = read.item(key);
  if (!item) return false;
  const call = storedCall(item);
  return finishCall(lookup.company_id, call.id, { ...ending, read: { call, consumers: countsEventConsumers(consumerKeys.map(read.item)) }, offerConversions: read.rows('offer_conversions') });
}
