import { getLead, getLeadByUuid } from '../../shared/leads/lead-store.js';
import { buyerAvailability } from '../../shared/leads/outbound-dial.js';
import { NotFoundError } from '../../shared/http/errors.js';
import type { Operation } from '../../shared/http/request.js';

/** A lead of the company by id (digits) or uuid; another company's lead is not found. */
export async function findCompanyLead(companyId: number, idOrUuid: string | undefined) {
  const value = (idOrUuid ?? '').trim();
  const lead = /^\d{1,16}$/.test(value) ? await getLead(companyId, Number(value)) : value ? await getLeadByUuid(companyId, value) : undefined;
  if (!lead) throw new NotFoundError();
  return lead;
}

/**
 * `GET /api/v1/leads/:id/buyer_is_available` (id or uuid): would a buyer of the lead's offer (its
 * schedule's offer, else the offer it was submitted to) take its call now? The routing core's
 * decision with the lead's tokens, nothing claimed: `buyers` in the order they would be tried,
 * `excluded` with each reason (paused, outside_business_hours, a cap, token_filter:<filter>...),
 * `reason` when nobody was considered (no_offer, blacklisted).
 */
export const buyerIsAvailable: Operation = async (request) => {
  const lead = await findCompanyLead(request.auth.companyId, request.pathParams.id);
  const availability = await buyerAvailability(request.auth.companyId, lead, request.now);
  const body = {
    status: 200,
    errors: {},
    buyer_is_available: availability.available,
    lead_id: lead.id,
    buyers: availability.buyers,
    excluded: availability.excluded,
    ...(availability.reason ? { reason: availability.reason } : {}),
    metadata: { root: 'buyer_is_available' },
  };
  return { kind: 'raw', response: { statusCode: 200, headers: { 'content-type': 'application/json; charset=utf-8' }, body: JSON.stringify(body) } };
};
