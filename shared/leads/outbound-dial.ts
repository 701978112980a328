import type { LeadRecord } from './lead-record.js';

/** The dial action's conditions (the schedule action's fields of the same names). */
export interface DialConditions {
  scheduleActionId: number | null;
  whenBuyerAvailable: boolean;
  whenBuyerWouldConvert: boolean;
  callsOnHoldLimit: number | null;
  availableCcPercentage: number | null;
  duringDaylightHours: boolean;
}

export type LeadDialResult = { placed: true; callId: number } | { placed: false; reason: string; retryAt?: Date };

export interface BuyerAvailability {
  available: boolean;
  buyers: Array<{ buyer_id: number; name: string | null }>;
  excluded: Array<{ buyer_id: number; reason: string }>;
}

/**
 * Places an outbound call to the lead through the telephony port; when the lead answers, the
 * routing core connects it to a buyer of the schedule's offer (shared/calls). Not placed (with
 * the reason and, when waiting helps, when to try again) if a condition does not hold.
 */
export async function dialLead(_companyId: number, _lead: LeadRecord, _conditions: DialConditions, _at: Date): Promise<LeadDialResult> {
  throw new Error('Outbound dialing is not built yet');
}

/** Whether a buyer of the lead's offer would take its call now, with the reasons of those that would not. */
export async function buyerAvailability(_companyId: number, _lead: LeadRecord, _at: Date): Promise<BuyerAvailability> {
  throw new Error('Outbound dialing is not built yet');
}
