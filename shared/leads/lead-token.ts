import { keys, type Key } from '../db/keys.js';
import { getItems } from '../db/records.js';
import { resolveTimeZone } from '../time-zones.js';
import type { LeadTokenOwner } from './lead-changes.js';

/**
 * Lead tokens: lead posts carry no company credentials, only an offer's or a schedule's
 * `lead_token`, unique across the deployment. Both lookups are read in one BatchGetItem; a
 * schedule's lookup item carries the settings a new lead takes (schedules' `lookupAttributes`),
 * so a submission needs no other read to know its owner.
 */

/** Tokens are generated as 32 hex digits; anything outside this shape names no owner and is not looked up. */
const TOKEN_SHAPE = /^[A-Za-z0-9_-]{1,128}$/;

export function plausibleLeadToken(value: unknown): value is string {
  return typeof value === 'string' && TOKEN_SHAPE.test(value);
}

function numberOrNull(value: unknown): number | null {
  return typeof value === 'number' && Number.isFinite(value) ? value : null;
}

/**
 * The offer or schedule a lead token belongs to, or undefined when none does. `alongside`: other
 * keys read in the same BatchGetItem (the caller's own use: their items come back in `also`).
 */
export async function findLeadTokenOwner(token: unknown, alongside: readonly Key[] = []): Promise<{ owner?: LeadTokenOwner; also: Record<string, unknown>[] }> {
  if (!plausibleLeadToken(token)) return { also: [] };
  const offerKey = keys.globalLookup('offers', 'lead_token', token);
  const scheduleKey = keys.globalLookup('schedules', 'lead_token', token);
  const items = await getItems([offerKey, scheduleKey, ...alongside]);
  const isLookup = (item: Record<string, unknown>) => item.pk === offerKey.pk || item.pk === scheduleKey.pk;
  return { owner: ownerOf(token, items.find((item) => item.pk === offerKey.pk), items.find((item) => item.pk === scheduleKey.pk)), also: items.filter((item) => !isLookup(item)) };
}

function ownerOf(token: string, offer: Record<string, unknown> | undefined, schedule: Record<string, unknown> | undefined): LeadTokenOwner | undefined {
  if (schedule) {
    const id = Number(schedule.id);
    return {
      companyId: Number(schedule.company_id),
      leadToken: token,
      owner: { kind: 'schedule', id },
      offerId: numberOrNull(schedule.offer_id),
      scheduleId: id,
      hoursToExpire: numberOrNull(schedule.hours_to_expire),
      maxContactAttempts: numberOrNull(schedule.max_contact_attempts),
      timeZone: (typeof schedule.time_zone === 'string' && resolveTimeZone(schedule.time_zone)) || 'UTC',
      paused: schedule.paused === true,
    };
  }
  if (offer) {
    const id = Number(offer.id);
    return { companyId: Number(offer.company_id), leadToken: token, owner: { kind: 'offer', id }, offerId: id, scheduleId: null, hoursToExpire: null, maxContactAttempts: null, timeZone: 'UTC', paused: false };
  }
  return undefined;
}
