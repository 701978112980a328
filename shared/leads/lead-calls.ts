import type { TokenValues } from '../routing/token-filters.js';
import { endLead } from './lead-changes.js';
import type { LeadRecord } from './lead-record.js';
import { cancelPending } from './lead-steps.js';
import { leadsOfContact, transitionLead, UnknownLeadError } from './lead-store.js';

/**
 * Calls and leads: an inbound call picks up its caller's offer lead (the lead's tokens become the
 * call's, before routing, so token filters and payout rules see them), the call's id is added to
 * the lead when the call ends, and a converted call converts the lead. Used by the call state machine
 * (shared/calls/call-inbound.ts, call-end.ts), for inbound calls and for the outbound calls schedules place.
 */

/** Call ids a lead keeps (its newest calls); the calls themselves are listed by caller. */
export const MAX_LEAD_CALL_IDS = 100;

/** How many of a caller's leads of one offer are read to find the newest active one. */
const PICKUP_READ = 10;

/**
 * The caller's newest active lead of the offer a call reached, if any: one Query of the contact
 * index, only when the caller's number is known.
 */
export async function offerLeadOfCaller(companyId: number, caller: string | null, offerId: number | null): Promise<LeadRecord | undefined> {
  if (!caller || offerId === null) return undefined;
  const leads = await leadsOfContact(companyId, caller, { kind: 'offer', id: offerId }, PICKUP_READ);
  return leads.find((lead) => lead.status === 'active');
}

/**
 * The tokens a call starts with: the lead's data, then the reservation's tokens on top (a ping's
 * tokens describe this very call, so they win over what a form sent earlier). Pure.
 */
export function callTokens(lead: Pick<LeadRecord, 'data'> | undefined, reservationTokens: Record<string, unknown> | undefined): TokenValues {
  return { ...(lead?.data ?? {}), ...(reservationTokens ?? {}) } as TokenValues;
}

/**
 * A call of the lead ended (finishCall, off the caller's ringing path): its id joins the lead's
 * `call_ids` (once; the newest MAX_LEAD_CALL_IDS kept) and, when it converted, the lead is marked
 * converted (lead_converted, once); a schedule lead still active has then reached its goal and
 * ends (completed, end_reason `converted`, nothing pending, lead_ended). An offer lead stays
 * active: it only carries data. One lead transition; a lead deleted meanwhile is ignored.
 */
export async function leadCallEnded(companyId: number, leadId: number, callId: number, converted: boolean, at: Date): Promise<void> {
  try {
    const { result: cancel } = await transitionLead(
      companyId,
      leadId,
      (lead) => {
        const ids = Array.isArray(lead.call_ids) ? lead.call_ids : [];
        const known = ids.includes(callId);
        if (!known) lead.call_ids = [...ids, callId].slice(-MAX_LEAD_CALL_IDS);
        if (!converted || lead.converted === true) return { result: undefined, save: !known };
        lead.converted = true;
        if (lead.schedule_id === null || lead.status !== 'active') return { result: undefined, save: true, events: ['lead_converted'] };
        const pending = endLead(lead, 'completed', 'converted', at);
        return { result: pending, save: true, events: ['lead_converted', 'lead_ended'] };
      },
      at,
    );
    await cancelPending(cancel);
  } catch (error) {
    if (!(error instanceof UnknownLeadError)) throw error;
  }
}
