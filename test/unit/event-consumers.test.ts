import { describe, expect, it } from 'vitest';
import { countsEventConsumers, eventConsumerKeys, messagesToStage } from '../../shared/events/event-consumers.js';
import type { QueueMessage } from '../../shared/ports/events.js';

const event = (id: string): QueueMessage => ({ kind: 'event', id, companyId: 7, event: { id, name: 'call_ended', companyId: 7, occurredAt: '2026-11-23T00:00:00.000Z', data: { id: 1 } } });
const email: QueueMessage = { kind: 'email', id: 'm1', companyId: 7, email: { companyId: 7, kind: 'team_invitation', to: 'a@example.com', subject: 's', text: 't' } };

describe('event consumers', () => {
  it('are read from the record counts of subscriptions and outgoing webhooks', () => {
    expect(eventConsumerKeys(7)).toEqual([
      { pk: 'C#7#seq', sk: 'subscriptions' },
      { pk: 'C#7#seq', sk: 'outgoing_webhooks' },
    ]);
  });

  it('exist when either count is above zero; absent items, zero and a count gone negative are none', () => {
    expect(countsEventConsumers([undefined, undefined])).toBe(false);
    expect(countsEventConsumers([{ value: 4, count: 0 }, undefined])).toBe(false);
    expect(countsEventConsumers([{ count: -1 }, { count: 0 }])).toBe(false);
    expect(countsEventConsumers([undefined, { count: 1 }])).toBe(true);
    expect(countsEventConsumers([{ count: 2 }, { count: 0 }])).toBe(true);
  });

  it('decide only the events: other messages are staged either way', () => {
    const messages = [event('e1'), email, event('e2')];
    expect(messagesToStage(messages, true)).toEqual(messages);
    expect(messagesToStage(messages, false)).toEqual([email]);
  });
});
