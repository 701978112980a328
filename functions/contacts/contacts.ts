import { callsOfCaller, type CallRecord } from '../../shared/calls/call-store.js';
import { blacklistEntry } from '../../shared/contacts/blacklist.js';
import { getContact, type ContactItem } from '../../shared/contacts/contact-store.js';
import { contactUpdateSchema, writeContactFields } from '../../shared/contacts/contact-write.js';
import { NotFoundError, ValidationError } from '../../shared/http/errors.js';
import type { Operation, OperationRequest } from '../../shared/http/request.js';
import { validate } from '../../shared/http/validation.js';
import type { LeadRecord } from '../../shared/leads/lead-record.js';
import { leadsOfContact } from '../../shared/leads/lead-store.js';
import { normalizeCallerNumber } from '../../shared/phone.js';
import { validStoredNumber } from '../../shared/phone-validation.js';
import { isoWithOffset } from '../../shared/time.js';
import { hangUp } from '../calls/hangup.js';

/**
 * Contacts: the company's record of one caller number across its leads and calls. The id is the
 * number (E.164; the path takes it URL-encoded, or as digits). A contact shows its own fields
 * (one item per company and number), whether the number is blacklisted, its newest leads and its
 * newest calls, read in parallel (three GetItem/Query reads and one Query of the calls).
 */

/** Leads and calls a contact shows (the newest); the lists by caller page through the rest. */
export const CONTACT_LEADS = 25;
export const CONTACT_CALLS = 25;
/** Live calls one hang-up request ends at most (a caller rarely has more than one). */
export const HANG_UP_LIMIT = 50;

function numberOf(request: OperationRequest): string {
  const number = normalizeCallerNumber(request.pathParams.id);
  if (!number) throw new ValidationError({ id: ['is not a phone number'] });
  return number;
}

function leadSummary(lead: LeadRecord) {
  return { id: lead.id, uuid: lead.uuid, status: lead.status, offer_id: lead.offer_id, schedule_id: lead.schedule_id, converted: lead.converted === true, created_at: isoWithOffset(lead.created_at) };
}

function callSummary(call: CallRecord) {
  return { id: call.id, uuid: call.uuid, status: call.status, in_progress: call.in_progress, offer_id: call.offer_id, buyer_id: call.buyer_id ?? null, created_at: isoWithOffset(call.created_at) };
}

interface ContactFacts {
  number: string;
  item?: ContactItem;
  blocked?: { blocked_at: string };
  leads: LeadRecord[];
  calls: CallRecord[];
}

async function readContact(companyId: number, number: string): Promise<ContactFacts> {
  const [item, blocked, leads, calls] = await Promise.all([
    getContact(companyId, number),
    blacklistEntry(companyId, number),
    leadsOfContact(companyId, number, undefined, 100),
    callsOfCaller(companyId, number, CONTACT_CALLS),
  ]);
  return { number, item, blocked, leads: leads.sort((a, b) => b.id - a.id).slice(0, CONTACT_LEADS), calls };
}

/** A contact as the API shows it. Pure. */
export function contactView(facts: ContactFacts): Record<string, unknown> {
  const { item } = facts;
  return {
    id: facts.number,
    type: 'Contact',
    caller_id: facts.number,
    first_name: item?.first_name ?? null,
    last_name: item?.last_name ?? null,
    email: item?.email ?? facts.leads.find((lead) => lead.email)?.email ?? null,
    notes: item?.notes ?? null,
    data: item?.data ?? {},
    blocked: facts.blocked !== undefined,
    blocked_at: facts.blocked ? isoWithOffset(facts.blocked.blocked_at) : null,
    lead_ids: facts.leads.map((lead) => lead.id),
    leads: facts.leads.map(leadSummary),
    call_ids: facts.calls.map((call) => call.id),
    calls: facts.calls.map(callSummary),
    created_at: item ? isoWithOffset(item.created_at) : null,
    updated_at: item ? isoWithOffset(item.updated_at) : null,
  };
}

const seen = (facts: ContactFacts) => facts.item !== undefined || facts.blocked !== undefined || facts.leads.length > 0 || facts.calls.length > 0;

/** `GET /api/v1/contacts/:id`: 404 when the company never saw the number (no call, lead, blacklist entry or contact fields). */
export const showContact: Operation = async (request) => {
  const facts = await readContact(request.auth.companyId, numberOf(request));
  if (!seen(facts)) throw new NotFoundError('Contact not found');
  return { kind: 'record', root: 'contact', record: contactView(facts) };
};

export { contactUpdateSchema };

/**
 * `PUT /api/v1/contacts/:id`: sets the fields sent (data merged, blank clears a field). Writing
 * a number the company never saw records it: a contact can be noted before it calls.
 */
export const updateContact: Operation = async (request) => {
  const companyId = request.auth.companyId;
  // A contact stored: its number must be valid under the full metadata, not only possible.
  const number = validStoredNumber(numberOf(request));
  if (!number) throw new ValidationError({ id: ['is not a valid phone number'] });
  const nested = request.params.contact && typeof request.params.contact === 'object' && !Array.isArray(request.params.contact) ? (request.params.contact as Record<string, unknown>) : {};
  const fields = validate(contactUpdateSchema, { ...request.params, ...nested });
  const { contact } = await writeContactFields(companyId, number, fields, request.now.toISOString());
  return { kind: 'record', root: 'contact', record: contactView({ ...(await readContact(companyId, number)), item: contact }) };
};

/**
 * `DELETE /api/v1/contacts/:id/calls`: asks the carrier to hang up each of the contact's calls in
 * progress (as `DELETE /api/v1/calls/:id` does; each ends when the carrier's final callback comes)
 * and answers how many it asked for.
 */
export const hangUpContactCalls: Operation = async (request) => {
  const companyId = request.auth.companyId;
  const number = numberOf(request);
  const live = (await callsOfCaller(companyId, number, HANG_UP_LIMIT)).filter((call) => call.in_progress);
  const hungUp: number[] = [];
  for (const call of live) {
    try {
      await hangUp(companyId, call, 'api', request.now);
      hungUp.push(call.id);
    } catch (error) {
      // Ended between the read and the hang-up: nothing to do for it.
      if (!(error instanceof ValidationError)) throw error;
    }
  }
  return { kind: 'record', root: 'contact', record: { id: number, caller_id: number, hung_up_count: hungUp.length, call_ids: hungUp } };
};
