import { describe, expect, it } from 'vitest';
import { ValidationError } from '../../shared/http/errors.js';
import { callTokens } from '../../shared/leads/lead-calls.js';
import { applySubmission, callbackTime, leadsToUpdate, newLead, type LeadTokenOwner } from '../../shared/leads/lead-changes.js';
import { liftNestedFields, readSubmission, tokenValue } from '../../shared/leads/lead-params.js';
import { blockedWithin } from '../../shared/contacts/unblock-job.js';
import { leadPredicate, totalCountSource } from '../../functions/leads/lead-list.js';

const NOW = new Date('2030-05-01T12:00:00.000Z');

const scheduleOwner: LeadTokenOwner = { companyId: 7, leadToken: 't', owner: { kind: 'schedule', id: 3 }, offerId: 9, scheduleId: 3, hoursToExpire: 10, maxContactAttempts: 4, timeZone: 'America/New_York', paused: false };
const offerOwner: LeadTokenOwner = { ...scheduleOwner, owner: { kind: 'offer', id: 9 }, scheduleId: null, hoursToExpire: null, maxContactAttempts: null, timeZone: 'UTC' };

function errorsOf(run: () => unknown): Record<string, string[]> {
  try {
    run();
  } catch (error) {
    if (error instanceof ValidationError) return error.errors;
    throw error;
  }
  throw new Error('no validation error');
}

describe('readSubmission', () => {
  it('splits the named parameters from the tokens, data winning over a top-level token of the same name', () => {
    const read = readSubmission({ lead_token: 't', auth_token: 's', caller_id: '415 555 2671', first_name: 'A', zip: 1, data: { zip: '2', list: [1, 2] }, blocked: 'no', lead_priority: '1.5' });
    expect(read).toMatchObject({ caller_id: '+14155552671', blocked: false, lead_priority: 1.5, tokens: { first_name: 'A', zip: '2', list: '[1,2]' } });
    expect(read.tokens).not.toHaveProperty('lead_token');
    expect(read.tokens).not.toHaveProperty('auth_token');
    expect(read.sent).toEqual({ caller_id: true, email: false });
  });

  it('names every failing parameter and refuses data past the token limits', () => {
    expect(Object.keys(errorsOf(() => readSubmission({ caller_id: '12', schedule_callback_in_seconds: -1, max_contact_attempts: 'x', apply_to: 'leads' }))).sort()).toEqual([
      'apply_to',
      'caller_id',
      'max_contact_attempts',
      'schedule_callback_in_seconds',
    ]);
    const many = Object.fromEntries(Array.from({ length: 101 }, (_, i) => [`k${i}`, i]));
    expect(errorsOf(() => readSubmission({ caller_id: '4155552671', ...many })).data).toEqual(['has more than 100 keys']);
  });
});

describe('liftNestedFields', () => {
  it('lifts nested contact fields by their aliases; other nested values become tokens, never parameters; the top level wins', () => {
    const lifted = liftNestedFields({ email: 'top@example.com', lead: { Phone: '4155552671', Email: 'deep@example.com', lastname: 'L', blocked: true, deeper: { zip_code: '1' } }, phone: undefined });
    expect(lifted).toMatchObject({ email: 'top@example.com', caller_id: '4155552671', data: { last_name: 'L', blocked: true, zip: '1' } });
    expect(lifted).not.toHaveProperty('blocked');
    expect(liftNestedFields({ phone: '4155552671', data: { a: { b: 1 } } })).toEqual({ caller_id: '4155552671', data: { b: 1 } });
  });

  it('keeps JSON text for values that are not plain', () => {
    expect(tokenValue({ a: 1 })).toBe('{"a":1}');
    expect(tokenValue(undefined)).toBeNull();
    expect(tokenValue(3)).toBe(3);
  });
});

describe('lead changes', () => {
  const submission = (fields: Record<string, unknown>) => readSubmission({ caller_id: '4155552671', ...fields });

  it('a schedule lead enters at its first action with the schedule defaults, due at the earliest of next_action_at and a callback', () => {
    const { lead, decision } = newLead(scheduleOwner, submission({ next_action_at: '2030-05-02 09:00:00', schedule_callback_in_seconds: 60 }), { id: 1, uuid: 'u' }, NOW);
    expect(lead).toMatchObject({ phase: 'actions', action_index: 0, max_contact_attempts: 4, hours_to_expire: 10, expires_at: '2030-05-01T22:00:00.000Z', step_version: 1 });
    expect(decision.step.pend?.at.toISOString()).toBe('2030-05-01T12:01:00.000Z');
    expect(decision.events).toEqual(['new_lead']);
    // Without an offset a time is read in the schedule's zone.
    expect(callbackTime({ schedule_callback_at: '2030-05-02 09:00:00' }, 'America/New_York', NOW)?.toISOString()).toBe('2030-05-02T13:00:00.000Z');
  });

  it('an offer lead only carries data; a blocked one ends at once', () => {
    expect(newLead(offerOwner, submission({}), { id: 1, uuid: 'u' }, NOW)).toMatchObject({ lead: { phase: null, next_action_at: null }, decision: { step: {} } });
    expect(newLead(offerOwner, submission({ blocked: true }), { id: 1, uuid: 'u' }, NOW)).toMatchObject({ lead: { status: 'blocked', end_reason: 'blocked' }, decision: { events: ['new_lead', 'lead_ended'] } });
  });

  it('an update moves the step only when asked, and a later callback waits for the pending step', () => {
    const { lead } = newLead(scheduleOwner, submission({ next_action_at: '2030-06-01 00:00:00 +0000' }), { id: 1, uuid: 'u' }, NOW);
    expect(applySubmission(lead, scheduleOwner, submission({ a: 1 }), NOW).step).toEqual({});
    expect(applySubmission(lead, scheduleOwner, submission({ schedule_callback_at: '2030-07-01 00:00:00 +0000' }), NOW).step).toEqual({});
    const earlier = applySubmission(lead, scheduleOwner, submission({ schedule_callback_at: '2030-05-10 00:00:00 +0000' }), NOW);
    expect(earlier.step).toMatchObject({ pend: { at: new Date('2030-05-10T00:00:00Z'), entry: { version: 2 } }, cancel: { version: 1 } });
    const restarted = applySubmission(lead, scheduleOwner, submission({ restart_schedule: true }), NOW);
    expect(restarted.step.pend?.at).toEqual(NOW);
    expect(lead.data).toEqual({ a: 1 });
  });

  it('updates the newest active lead, or every active one', () => {
    const leads = [{ id: 1, status: 'active' as const }, { id: 3, status: 'completed' as const }, { id: 2, status: 'active' as const }];
    expect(leadsToUpdate(leads, false).map((lead) => lead.id)).toEqual([2]);
    expect(leadsToUpdate(leads, true).map((lead) => lead.id)).toEqual([2, 1]);
  });

  it("a call's tokens: the lead's, then the reservation's on top", () => {
    expect(callTokens({ data: { a: 1, b: 1 } }, { b: 2 })).toEqual({ a: 1, b: 2 });
    expect(callTokens(undefined, undefined)).toEqual({});
  });
});

describe('lists and jobs', () => {
  it('counts totals from the rollup category that answers the filters, or not at all', () => {
    expect(totalCountSource({})).toEqual({ category: 'status', field: 'leads' });
    expect(totalCountSource({ status: 'removed' })).toEqual({ category: 'status', value: 'removed', field: 'removed' });
    expect(totalCountSource({ offer_id: 4, status: 'active' })).toEqual({ category: 'offer', value: '4', field: 'active' });
    expect(totalCountSource({ offer_id: 4, schedule_id: 2 })).toBeUndefined();
    expect(totalCountSource({ fulltext: 'x' })).toBeUndefined();
    const accept = leadPredicate({ status: 'active', fulltext: 'ann' });
    expect(accept({ status: 'active', data: { first_name: 'Ann' } })).toBe(true);
    expect(accept({ status: 'removed', data: { first_name: 'Ann' } })).toBe(false);
  });

  it('unblocks entries blocked within the bounds, open where blank', () => {
    expect(blockedWithin('2026-02-01T00:00:00Z', '2026-01-01T00:00:00Z', '2026-03-01T00:00:00Z')).toBe(true);
    expect(blockedWithin('2026-04-01T00:00:00Z', '2026-01-01T00:00:00Z', '2026-03-01T00:00:00Z')).toBe(false);
    expect(blockedWithin('2020-01-01T00:00:00Z', null, '')).toBe(true);
  });
});
