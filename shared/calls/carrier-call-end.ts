import { getLookup, queryAllRecords } from '../db/records.js';
import { finishCall, type CallEnding } from './call-flow.js';
import { carrierCallKey, getCall } from './call-store.js';

/**
 * The carrier's final status of a call (the `status` webhook): the call is found by the carrier's
 * call id, then read beside the company's traffic source payout rules (they do not depend on the
 * call, only on its company), and ended with both as read: no record is read twice and the rules
 * cost no step of their own. False when no such call, or it had ended already.
 */
export async function finishCarrierCall(carrier: string, carrierCallId: string, ending: Omit<CallEnding, 'call' | 'offerConversions'>): Promise<boolean> {
  const lookup = await getLookup(carrierCallKey(carrier, carrierCallId));
  if (!lookup) return false;
  const [call, offerConversions] = await Promise.all([getCall(lookup.company_id, lookup.id), queryAllRecords(lookup.company_id, 'offer_conversions')]);
  if (!call) return false;
  return finishCall(lookup.company_id, call.id, { ...ending, call, offerConversions });
}
