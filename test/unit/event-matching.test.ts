import { describe, expect, it } from 'vitest';
import { outgoingWebhookMatches, subscriptionMatches } from '../../shared/events/event-matching.js';
import type { DomainEvent } from '../../shared/ports/events.js';

function event(name: string, data: Record<string, unknown>): DomainEvent {
  return { id: 'e1', name, companyId: 1, occurredAt: '2026-11-28T00:00:00Z', data } as DomainEvent;
}

describe('outgoing webhook matching', () => {
  const base = { trigger_type: 'call_ended', enabled: true };

  it('fires on its trigger_type only, and never when disabled', () => {
    expect(outgoingWebhookMatches(base, event('call_ended', {}))).toBe(true);
    expect(outgoingWebhookMatches(base, event('new_call', {}))).toBe(false);
    expect(outgoingWebhookMatches({ ...base, enabled: false }, event('call_ended', {}))).toBe(false);
  });

  it('fires only for its offer when it names one', () => {
    expect(outgoingWebhookMatches({ ...base, offer_id: 7 }, event('call_ended', { offer_id: 7 }))).toBe(true);
    expect(outgoingWebhookMatches({ ...base, offer_id: 7 }, event('call_ended', { offer_id: 8 }))).toBe(false);
    // One without an offer fires for every offer's calls.
    expect(outgoingWebhookMatches(base, event('call_ended', { offer_id: 8 }))).toBe(true);
    expect(outgoingWebhookMatches({ ...base, offer_id: null }, event('call_ended', { offer_id: 8 }))).toBe(true);
  });

  it('fires for a call answered at least trigger_duration seconds: the boundary fires, one second less does not', () => {
    const webhook = { ...base, trigger_duration: 90 };
    expect(outgoingWebhookMatches(webhook, event('call_ended', { answered_duration: 90 }))).toBe(true);
    expect(outgoingWebhookMatches(webhook, event('call_ended', { answered_duration: 91 }))).toBe(true);
    expect(outgoingWebhookMatches(webhook, event('call_ended', { answered_duration: 89 }))).toBe(false);
    // A call never answered has no answered_duration: it counts as 0 seconds.
    expect(outgoingWebhookMatches(webhook, event('call_ended', {}))).toBe(false);
    expect(outgoingWebhookMatches({ ...base, trigger_duration: 0 }, event('call_ended', {}))).toBe(true);
    expect(outgoingWebhookMatches({ ...base, trigger_duration: null }, event('call_ended', {}))).toBe(true);
  });
});

describe('subscription matching', () => {
  it('matches its event name, enabled, and trigger_fields', () => {
    const subscription = { event: 'call_ended', enabled: true, trigger_fields: { offer_id: 3 } };
    expect(subscriptionMatches(subscription, event('call_ended', { offer_id: 3 }))).toBe(true);
    expect(subscriptionMatches(subscription, event('call_ended', { offer_id: 4 }))).toBe(false);
    expect(subscriptionMatches(subscription, event('new_call', { offer_id: 3 }))).toBe(false);
    expect(subscriptionMatches({ ...subscription, enabled: false }, event('call_ended', { offer_id: 3 }))).toBe(false);
  });
});
