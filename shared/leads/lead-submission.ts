import { randomUUID } from 'node:crypto';
import { adjustCall } from '../calls/call-flow.js';
import { blacklistDelete, blacklistPut } from '../contacts/blacklist.js';
import { dncCheckPut } from '../reporting/dnc-checks.js';
import type { TransactItem } from '../db/client.js';
import { userOfToken } from '../auth/access.js';
import { missingPermission, teamsAllow } from '../auth/permissions.js';
import { keys, type Key } from '../db/keys.js';
import { getItems } from '../db/records.js';
import { countsEventConsumers, eventConsumerKeys } from '../events/event-consumers.js';
import { publishStaged, stageMessages } from '../events/outbox.js';
import { HttpError, ValidationError } from '../http/errors.js';
import { numbersOfOffer } from '../numbers/lookup.js';
import { RecentMap } from '../recent-map.js';
import { serviceRandom } from '../routing/random.js';
import { reservationPut, type NumberReservation } from '../routing/reservations.js';
import { applySubmission, endLead, leadsToUpdate, newLead, type LeadTokenOwner, type StepEffect } from './lead-changes.js';
import { readSubmission, type LeadSubmission } from './lead-params.js';
import type { LeadRecord } from './lead-record.js';
import { deleteLeadById } from './lead-removal.js';
import { leadRollupWrites } from './lead-rollup-store.js';
import { leadFigures } from './lead-rollups.js';
import { cancelPending, schedulePending } from './lead-steps.js';
import { contactOf, createLead, leadEvents, leadsOfContact, newLeadId, transitionLead } from './lead-store.js';
import { findLeadTokenOwner } from './lead-token.js';

/**
 * `POST /api/v1/leads`: a lead token's offer or schedule, a contact (caller number or e-mail),
 * data tokens and instructions. Reads: the token lookup, then the contact's leads of that owner
 * (one Query); a new lead is then one transaction (the lead, its uuid lookup, its events' outbox
 * items, its report rollups, and the blacklist or number hold it asks for), and a schedule lead's
 * first step goes to the scheduler after the commit. docs/leads.md has every rule.
 */

/** How long a number assigned to a lead (assign_service_number) is held for its caller. */
export const LEAD_NUMBER_HOLD_SECONDS = 7 * 24 * 3600;

/** The newest calls of a lead that `apply_to=calls` updates. */
export const APPLY_TO_CALLS_LIMIT = 20;

export interface SubmissionResult {
  companyId: number;
  lead: LeadRecord;
  created: boolean;
  /** Active leads the submission updated (update_all_matching_leads can update several). */
  updatedLeadIds: number[];
  serviceNumber?: string;
  smsNumber?: string;
  appliedToCallIds?: number[];
}

/** The token is missing or names no offer or schedule. */
export function unknownLeadToken(token: unknown): HttpError {
  return token === undefined || token === null || token === ''
    ? new ValidationError({ lead_token: ['is required'] })
    : new HttpError(404, 'lead_token is unknown', { lead_token: ['is unknown'] });
}

/** `unblock_contact` needs the auth_token of a user of the offer's company whose teams let them update leads (admins may). */
async function checkUnblockPermission(owner: LeadTokenOwner, authToken: unknown): Promise<void> {
  if (typeof authToken !== 'string' || authToken === '') throw new ValidationError({ auth_token: ['is required to unblock_contact'] });
  const found = await userOfToken(authToken);
  if (!found || Number(found.user.company_id) !== owner.companyId) throw new HttpError(403, 'auth_token may not update these leads', { auth_token: ['may not update these leads'] });
  if (!teamsAllow(found.access, 'leads', 'update')) {
    throw new HttpError(403, missingPermission('leads', 'update'), { base: [missingPermission('leads', 'update')], auth_token: ['may not update these leads'] });
  }
}

function checkInstructions(owner: LeadTokenOwner, submission: LeadSubmission): void {
  const errors: Record<string, string[]> = {};
  if (submission.blocked && submission.unblock_contact) errors.blocked = ["can't be set together with unblock_contact"];
  for (const field of ['blocked', 'unblock_contact', 'assign_service_number', 'assign_sms_number'] as const) {
    if (submission[field] && !submission.caller_id) errors[field] = ['needs a caller_id'];
  }
  if ((submission.assign_service_number || submission.assign_sms_number) && owner.offerId === null) {
    errors.assign_service_number = ['the schedule has no offer, so there is no number to assign'];
  }
  if (Object.keys(errors).length) throw new ValidationError(errors);
}

/** A number of the offer for the caller: any of its tracking numbers (ring pool numbers included), chosen at random. */
async function pickNumbers(owner: LeadTokenOwner, submission: LeadSubmission): Promise<{ service?: string; sms?: string }> {
  if (!submission.assign_service_number && !submission.assign_sms_number) return {};
  const numbers = await numbersOfOffer(owner.companyId, owner.offerId!);
  if (numbers.length === 0) {
    const field = submission.assign_service_number ? 'assign_service_number' : 'assign_sms_number';
    throw new ValidationError({ [field]: ['the offer has no tracking number to assign'] });
  }
  const number = numbers[Math.floor(serviceRandom() * numbers.length)]!;
  return { ...(submission.assign_service_number ? { service: number.number } : {}), ...(submission.assign_sms_number ? { sms: number.number } : {}) };
}

/** The hold of an assigned number for the lead's caller, like a post's reservation without buyers. */
function numberHold(owner: LeadTokenOwner, lead: LeadRecord, number: string, now: Date): TransactItem {
  const reservation: NumberReservation = {
    number,
    caller: lead.caller_id!,
    buyer_ids: [],
    tokens: lead.data,
    ping_id: null,
    inbound_webhook_id: null,
    offer_id: owner.offerId,
    traffic_source_id: null,
    reserved_until: new Date(now.getTime() + LEAD_NUMBER_HOLD_SECONDS * 1000).toISOString(),
    lead_id: lead.id,
  };
  return { Put: reservationPut(owner.companyId, reservation) };
}

/** Writes that go with the lead's own write: the blacklist change and the number hold. */
function sideWrites(owner: LeadTokenOwner, submission: LeadSubmission, lead: LeadRecord, numbers: { service?: string; sms?: string }, now: Date): TransactItem[] {
  const writes: TransactItem[] = [];
  if (submission.blocked && lead.caller_id) writes.push({ Put: blacklistPut(owner.companyId, lead.caller_id, now) });
  if (submission.unblock_contact && lead.caller_id) writes.push({ Delete: blacklistDelete(owner.companyId, lead.caller_id) });
  const held = [...new Set([numbers.service, numbers.sms].filter((number): number is string => Boolean(number)))];
  for (const number of held) writes.push(numberHold(owner, lead, number, now));
  return writes;
}

async function afterCommit(step: StepEffect): Promise<void> {
  await cancelPending(step.cancel);
  if (step.pend) await schedulePending(step.pend.entry, step.pend.at);
}

/** Ends the contact's live leads of this owner (expire_existing), each with lead_ended. */
async function expireLeads(owner: LeadTokenOwner, leads: readonly LeadRecord[], now: Date): Promise<void> {
  for (const match of leads.filter((lead) => lead.status === 'active')) {
    const { result: cancel } = await transitionLead(
      owner.companyId,
      match.id,
      (lead) => (lead.status === 'active' ? { result: endLead(lead, 'expired', 'expire_existing', now), save: true, events: ['lead_ended'] } : { result: undefined, save: false }),
      now,
    );
    await cancelPending(cancel);
  }
}

/** The intake's do-not-call log entry for the lead the submission answers with, if the check answered. */
type DncLog = (lead: LeadRecord) => TransactItem[];
const NO_DNC_LOG: DncLog = () => [];

async function createFor(owner: LeadTokenOwner, submission: LeadSubmission, numbers: { service?: string; sms?: string }, dncLog: DncLog, consumers: boolean, now: Date): Promise<LeadRecord> {
  const { lead, decision } = newLead(owner, submission, { id: newLeadId(now), uuid: randomUUID() }, now);
  const { writes, staged } = stageMessages(owner.companyId, leadEvents(owner.companyId, consumers ? decision.events : [], lead, now), now);
  await createLead(owner.companyId, lead, [...leadRollupWrites(owner.companyId, undefined, leadFigures(lead)), ...sideWrites(owner, submission, lead, numbers, now), ...dncLog(lead), ...writes]);
  await publishStaged(staged);
  await afterCommit(decision.step);
  return lead;
}

async function updateWith(owner: LeadTokenOwner, submission: LeadSubmission, leadId: number, numbers: { service?: string; sms?: string }, dncLog: DncLog, now: Date): Promise<LeadRecord | undefined> {
  const { lead, saved, result } = await transitionLead(
    owner.companyId,
    leadId,
    (lead) => {
      // Ended meanwhile: not updated (the caller then starts a new lead).
      if (lead.status !== 'active') return { result: undefined, save: false };
      const decision = applySubmission(lead, owner, submission, now);
      return { result: decision.step, save: true, events: decision.events, alongside: [...sideWrites(owner, submission, lead, numbers, now), ...dncLog(lead)] };
    },
    now,
  );
  if (!saved || !result) return undefined;
  await afterCommit(result);
  return lead;
}

/** `apply_to=calls`: the submission's tokens merged into the lead's newest calls; a call the merge would overfill is left as it is. */
async function applyToCalls(companyId: number, lead: LeadRecord, tokens: LeadSubmission['tokens'], now: Date): Promise<number[]> {
  if (Object.keys(tokens).length === 0) return [];
  const applied: number[] = [];
  for (const callId of (lead.call_ids ?? []).slice(-APPLY_TO_CALLS_LIMIT)) {
    try {
      await adjustCall(companyId, callId, { data: tokens }, now);
      applied.push(callId);
    } catch (error) {
      if (!(error instanceof ValidationError) && !(error instanceof Error && error.name === 'UnknownCallError')) throw error;
    }
  }
  return applied;
}

/**
 * Which company each lead token led to, remembered by the function instance, so the next
 * submission with that token reads the caller's blacklist entry in the token's own BatchGetItem.
 * Only a hint: the entry is used when the token lookup read beside it names the same company.
 */
const tokenCompanies = new RecentMap<string, number>(1_000);

/** The submission's fields when they are valid, else undefined (their errors are raised after the token is checked). */
function validSubmission(params: Record<string, unknown>): LeadSubmission | undefined {
  try {
    return readSubmission(params);
  } catch {
    return undefined;
  }
}

export async function submitLead(params: Record<string, unknown>, now: Date): Promise<SubmissionResult> {
  const hintedCompany = typeof params.lead_token === 'string' ? tokenCompanies.get(params.lead_token) : undefined;
  const parsed = validSubmission(params);
  const hintedCaller = hintedCompany === undefined ? undefined : parsed?.caller_id;
  const hintedKey = hintedCompany !== undefined && hintedCaller ? keys.blacklist(hintedCompany, hintedCaller) : undefined;
  // Whether anything receives the company's events (event-consumers.ts), read the same way.
  const hintedConsumerKeys = hintedCompany !== undefined ? eventConsumerKeys(hintedCompany) : [];
  const { owner, also } = await findLeadTokenOwner(params.lead_token, [...(hintedKey ? [hintedKey] : []), ...hintedConsumerKeys]);
  if (!owner) throw unknownLeadToken(params.lead_token);
  tokenCompanies.set(owner.leadToken, owner.companyId);
  // Parsed once; invalid fields raise their 422 here, after an unknown token's.
  const submission = parsed ?? readSubmission(params);
  checkInstructions(owner, submission);
  if (submission.unblock_contact) await checkUnblockPermission(owner, params.auth_token);
  // The reference makes every parameter optional: a lead with neither caller_id nor email (only
  // its token and data) is created as it is, and, having no contact, never matches another.
  const contact = contactOf(submission);
  // The do-not-call check of the intake: read in the token's BatchGetItem when the instance knew
  // the token's company, else beside the contact's read; either way it adds no wait. It only logs
  // (GET /api/v1/dnc_check_logs), in the transaction of the lead the response names (so no write
  // of its own), and a failed read logs nothing rather than fail.
  const dncAnswered = hintedKey !== undefined && hintedCompany === owner.companyId && hintedCaller === submission.caller_id;
  // What the token's read did not answer (the caller's blacklist entry, the event consumer
  // counts) is read beside the contact's Query, in one BatchGetItem.
  const blacklistKey = !dncAnswered && submission.caller_id ? keys.blacklist(owner.companyId, submission.caller_id) : undefined;
  const consumerKeys = hintedCompany === owner.companyId ? [] : eventConsumerKeys(owner.companyId);
  const lateKeys = [...(blacklistKey ? [blacklistKey] : []), ...consumerKeys];
  const [matches, numbers, late] = await Promise.all([
    contact ? leadsOfContact(owner.companyId, contact, owner.owner) : [],
    pickNumbers(owner, submission),
    // A failed read decides nothing: the check logs nothing, and the events are staged.
    lateKeys.length ? getItems(lateKeys).catch(() => undefined) : [],
  ]);
  const found = (key: Key) => [...also, ...(late ?? [])].find((item) => item.pk === key.pk && item.sk === key.sk);
  const onDncList = dncAnswered ? found(hintedKey) !== undefined : blacklistKey && late ? found(blacklistKey) !== undefined : undefined;
  const consumers = hintedCompany === owner.companyId ? countsEventConsumers(hintedConsumerKeys.map(found)) : late ? countsEventConsumers(consumerKeys.map(found)) : true;

  if (submission.delete_existing) for (const match of matches) await deleteLeadById(owner.companyId, match.id);
  else if (submission.expire_existing) await expireLeads(owner, matches, now);
  const targets = submission.delete_existing || submission.expire_existing ? [] : leadsToUpdate(matches, submission.update_all_matching_leads);

  const dncLog: DncLog = (lead) =>
    onDncList !== undefined && lead.caller_id ? [dncCheckPut(owner.companyId, { caller_number: lead.caller_id, blocked: onDncList, source: 'lead', lead_id: lead.id }, now)] : [];
  const updated: LeadRecord[] = [];
  for (const target of targets) {
    // Only the first lead saved is the one the response names, and the one the entry is about.
    const lead = await updateWith(owner, submission, target.id, numbers, updated.length === 0 ? dncLog : NO_DNC_LOG, now);
    if (lead) updated.push(lead);
  }
  let lead = updated[0];
  const created = !lead;
  if (!lead) {
    if (submission.update_only) throw new HttpError(404, 'No active lead matches', { lead: ['no active lead matches this lead_token and contact; update_only creates none'] });
    lead = await createFor(owner, submission, numbers, dncLog, consumers, now);
  }
  const appliedToCallIds = submission.apply_to_calls ? (await Promise.all(updated.map((each) => applyToCalls(owner.companyId, each, submission.tokens, now)))).flat() : undefined;
  return {
    companyId: owner.companyId,
    lead,
    created,
    updatedLeadIds: updated.map((each) => each.id),
    ...(numbers.service ? { serviceNumber: numbers.service } : {}),
    ...(numbers.sms ? { smsNumber: numbers.sms } : {}),
    ...(appliedToCallIds ? { appliedToCallIds } : {}),
  };
}

