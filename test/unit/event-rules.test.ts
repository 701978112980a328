import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { fireStatus } from '../../shared/events/fire-status.js';
import { eventPayload, objectKindOf } from '../../shared/events/payload.js';
import {
  DEFAULT_RETRY_SCHEDULE,
  delayAfter,
  maxAttempts,
  parseDuration,
  parseRetrySchedule,
  retryPolicyFromEnv,
  scheduleSpanSeconds,
  shouldDisable,
} from '../../shared/events/retry-schedule.js';
import { newSigningSecret, signatureHeaders } from '../../shared/events/signing.js';
import { matchesTriggerFields } from '../../shared/events/trigger-fields.js';
import { webhookTokens } from '../../shared/events/webhook-tokens.js';

describe('the retry schedule', () => {
  const policy = retryPolicyFromEnv({});

  it('is the Standard Webhooks schedule by default: 8 attempts over more than a day', () => {
    expect(policy.delays).toEqual([5, 300, 1800, 7200, 18000, 36000, 36000]);
    expect(maxAttempts(policy)).toBe(8);
    expect(scheduleSpanSeconds(policy)).toBe(27 * 3600 + 35 * 60 + 5);
    expect(scheduleSpanSeconds(policy)).toBeGreaterThan(24 * 3600);
  });

  it('gives the delay after each failed attempt, and none after the last', () => {
    expect(delayAfter(policy, 1)).toBe(5);
    expect(delayAfter(policy, 7)).toBe(36000);
    expect(delayAfter(policy, 8)).toBeUndefined();
    expect(delayAfter(policy, 0)).toBeUndefined();
  });

  it('reads durations in seconds, minutes, hours and days', () => {
    expect(parseDuration('90')).toBe(90);
    expect(parseDuration('5m')).toBe(300);
    expect(parseDuration('2h')).toBe(7200);
    expect(parseDuration('5d')).toBe(432000);
    for (const bad of ['', '5w', '-1', '1.5h', 'h']) expect(parseDuration(bad), bad).toBeUndefined();
  });

  it('refuses a malformed schedule or a delay SQS cannot hold, naming the setting', () => {
    expect(parseRetrySchedule('0,0,0')).toEqual([0, 0, 0]);
    expect(parseRetrySchedule(DEFAULT_RETRY_SCHEDULE)).toHaveLength(7);
    for (const bad of ['', '5s,,x', '13h', Array(21).fill('1s').join(',')]) expect(() => parseRetrySchedule(bad), bad).toThrow(/WEBHOOK_RETRY_SCHEDULE/);
    expect(() => retryPolicyFromEnv({ WEBHOOK_DISABLE_AFTER: 'soon' })).toThrow(/WEBHOOK_DISABLE_AFTER/);
  });

  it('disables a subscription only when a last attempt fails after failing long enough', () => {
    const now = new Date('2026-11-27T00:00:00Z');
    const fiveDaysAgo = new Date('2026-11-22T00:00:00Z');
    const fourDaysAgo = new Date('2026-11-23T00:00:00Z');
    expect(shouldDisable(policy, fiveDaysAgo, true, now)).toBe(true);
    expect(shouldDisable(policy, fourDaysAgo, true, now)).toBe(false);
    expect(shouldDisable(policy, fiveDaysAgo, false, now)).toBe(false);
    expect(shouldDisable(policy, undefined, true, now)).toBe(false);
  });
});

describe('trigger_fields', () => {
  const call = { id: 9, offer_id: 3, buyer_id: 4, traffic_source_id: 5, number_id: 6, buyer_converted: true, offer_converted: false, has_recording: false };

  it('matches when every given field matches', () => {
    expect(matchesTriggerFields({}, call)).toBe(true);
    expect(matchesTriggerFields(null, call)).toBe(true);
    expect(matchesTriggerFields({ offer_id: 3, buyer_id: 4, number_id: 6, traffic_source_id: 5 }, call)).toBe(true);
    expect(matchesTriggerFields({ buyer_converted: true, has_recording: false, either_converted: true }, call)).toBe(true);
  });

  it('does not match when one field differs or the object lacks it', () => {
    expect(matchesTriggerFields({ offer_id: 3, buyer_id: 5 }, call)).toBe(false);
    expect(matchesTriggerFields({ offer_converted: true }, call)).toBe(false);
    expect(matchesTriggerFields({ either_converted: false }, call)).toBe(false);
    expect(matchesTriggerFields({ schedule_id: 1 }, call)).toBe(false);
    expect(matchesTriggerFields({ either_converted: false }, { ...call, buyer_converted: false })).toBe(true);
  });
});

describe('the payload and its signature', () => {
  const event = { id: 'evt-1', name: 'call_ended' as const, companyId: 7, occurredAt: '2026-11-22T10:00:00.000Z', data: { id: 42, status: 'completed' } };

  it('is the Standard Webhooks shape with the event id, company and object kind', () => {
    expect(JSON.parse(eventPayload(event))).toEqual({ id: 'evt-1', type: 'call_ended', timestamp: '2026-11-22T10:00:00.000Z', company_id: 7, object: 'call', data: { id: 42, status: 'completed' } });
    expect(objectKindOf('new_lead')).toBe('lead');
    expect(objectKindOf('lead_opted_out')).toBe('lead');
    expect(objectKindOf('incoming_text_message')).toBe('incoming_text_message');
  });

  it('verifies with the standardwebhooks library, with either secret during a rotation', () => {
    const [current, previous] = [newSigningSecret(), newSigningSecret()];
    const body = eventPayload(event);
    const headers = signatureHeaders(event.id, new Date(), body, [current, previous]);
    expect(headers['webhook-id']).toBe('evt-1');
    expect(headers['webhook-timestamp']).toMatch(/^\d{10}$/);
    expect(new Webhook(current).verify(body, headers)).toEqual(JSON.parse(body));
    expect(new Webhook(previous).verify(body, headers)).toEqual(JSON.parse(body));
    expect(() => new Webhook(newSigningSecret()).verify(body, headers)).toThrow();
    expect(() => new Webhook(current).verify(body.replace('42', '43'), headers)).toThrow();
  });
});

describe('webhook tokens', () => {
  it('puts the object fields over its data tokens, with the object id and the event', () => {
    const tokens = webhookTokens('call_ended', 'evt-1', { id: 42, caller_number: '+1415', offer_id: 3, data: { first_name: 'Ann', offer_id: 999 }, attempts: [1] });
    expect(tokens).toMatchObject({ first_name: 'Ann', offer_id: 3, caller_number: '+1415', call_id: 42, event: 'call_ended', event_id: 'evt-1' });
    expect(tokens).not.toHaveProperty('attempts');
  });
});

describe('a manual fire status', () => {
  it('follows the sends of its URLs', () => {
    expect(fireStatus({ url_count: 0 })).toBe('nothing_to_fire');
    expect(fireStatus({ url_count: 2, webhook_log_ids: [] })).toBe('queued');
    expect(fireStatus({ url_count: 2, webhook_log_ids: [1] })).toBe('sending');
    expect(fireStatus({ url_count: 2, delivered_count: 2 })).toBe('delivered');
    expect(fireStatus({ url_count: 2, failed_count: 2 })).toBe('failed');
    expect(fireStatus({ url_count: 2, delivered_count: 1, failed_count: 1 })).toBe('partly_delivered');
  });
});

describe('trigger_fields, the edges', () => {
  it('reads ids given as digit strings, and nothing else, as ids', () => {
    expect(matchesTriggerFields({ offer_id: 3 }, { offer_id: '3' })).toBe(true);
    for (const text of ['3x', 'x3', ' 3', '', '3.0']) expect(matchesTriggerFields({ offer_id: 3 }, { offer_id: text }), text).toBe(false);
    expect(matchesTriggerFields({ offer_id: 3 }, { offer_id: true })).toBe(false);
  });

  it('ignores fields whose wanted value is null or absent, and a filter that is not a hash', () => {
    expect(matchesTriggerFields({ offer_id: null, buyer_id: undefined }, { offer_id: 5 })).toBe(true);
    expect(matchesTriggerFields([{ offer_id: 1 }], { offer_id: 5 })).toBe(true);
    expect(matchesTriggerFields('offer_id=1', { offer_id: 5 })).toBe(true);
  });

  it('counts a flag as set only when it is true, so an absent or text flag is false', () => {
    expect(matchesTriggerFields({ has_recording: true }, { has_recording: 'true' })).toBe(false);
    expect(matchesTriggerFields({ has_recording: false }, {})).toBe(true);
    expect(matchesTriggerFields({ buyer_converted: true }, { buyer_converted: 1 })).toBe(false);
    expect(matchesTriggerFields({ either_converted: true }, { offer_converted: true })).toBe(true);
  });
});

describe('webhook tokens, the edges', () => {
  it('takes data tokens only from a hash, and scalar fields only', () => {
    expect(webhookTokens('call_ended', 'e', { id: 1, data: ['a', 'b'] })).not.toHaveProperty('0');
    expect(webhookTokens('call_ended', 'e', { id: 1, data: null })).toMatchObject({ id: 1, data: null });
    const tokens = webhookTokens('call_ended', 'e', { id: 1, caller_number: null, answered: false, nested: { a: 1 }, data: { zip: '94107' } });
    expect(tokens).toMatchObject({ caller_number: null, answered: false, zip: '94107' });
    expect(tokens).not.toHaveProperty('nested');
  });

  it('names the object id by the event\'s object, and a call without an event', () => {
    expect(webhookTokens('new_lead', 'e', { id: 7 })).toMatchObject({ lead_id: 7 });
    expect(webhookTokens(null, null, { id: 8 })).toMatchObject({ call_id: 8, event: null, event_id: null });
    expect(webhookTokens('call_ended', 'e', {})).toMatchObject({ call_id: null });
  });
});

describe('the retry schedule, the edges', () => {
  it('trims each delay, allows 20 of them and delays of exactly 12 hours', () => {
    expect(parseRetrySchedule(' 5s , 5m ')).toEqual([5, 300]);
    expect(parseRetrySchedule(Array(20).fill('1s').join(','))).toHaveLength(20);
    expect(parseRetrySchedule('12h')).toEqual([43200]);
    expect(parseDuration(' 90 ')).toBe(90);
  });

  it('follows WEBHOOK_RETRY_SCHEDULE when set', () => {
    expect(retryPolicyFromEnv({ WEBHOOK_RETRY_SCHEDULE: '1m' }).delays).toEqual([60]);
    expect(retryPolicyFromEnv({ WEBHOOK_DISABLE_AFTER: '2h' }).disableAfterSeconds).toBe(7200);
  });

  it('disables exactly when the failing has lasted the whole period', () => {
    const policy = retryPolicyFromEnv({ WEBHOOK_DISABLE_AFTER: '1h' });
    const since = new Date('2026-11-22T10:00:00Z');
    expect(shouldDisable(policy, since, true, new Date('2026-11-22T11:00:00Z'))).toBe(true);
    expect(shouldDisable(policy, since, true, new Date('2026-11-22T10:59:59.999Z'))).toBe(false);
  });
});
