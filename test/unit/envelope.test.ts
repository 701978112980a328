import { describe, expect, it } from 'vitest';
import { checksum, errorEnvelope, listEnvelope, recordEnvelope } from '../../shared/http/envelope.js';
import { isoWithOffset, isValidTimeZone } from '../../shared/time.js';

describe('envelopes', () => {
  it('wraps a record with status, errors, root, checksum and metadata.root', () => {
    const envelope = recordEnvelope('subscription', { id: 1 });
    expect(envelope).toEqual({
      status: 200,
      errors: {},
      subscription: { id: 1 },
      checksum: checksum({ id: 1 }),
      metadata: { root: 'subscription' },
    });
    expect(envelope.checksum).toMatch(/^[0-9a-f]{32}$/);
  });

  it('changes the checksum when the record changes', () => {
    expect(checksum({ id: 1, a: 'x' })).not.toBe(checksum({ id: 1, a: 'y' }));
  });

  it('adds associations only when there are some', () => {
    expect(recordEnvelope('x', {}, {})).not.toHaveProperty('associations');
    expect(recordEnvelope('x', {}, { integrations: [] })).toHaveProperty('associations', { integrations: [] });
  });

  it('gives lists a plural root and metadata, or the bare array', () => {
    const metadata = { total_count: 1, page: 1, per_page: 25, total_pages: 1 };
    expect(listEnvelope('subscriptions', [{ id: 1 }], metadata, false)).toEqual({
      status: 200,
      errors: {},
      subscriptions: [{ id: 1 }],
      metadata: { root: 'subscriptions', ...metadata },
    });
    expect(listEnvelope('subscriptions', [{ id: 1 }], metadata, true)).toEqual([{ id: 1 }]);
  });

  it('puts the HTTP status in error bodies', () => {
    expect(errorEnvelope(422, { a: ['b'] })).toEqual({ status: 422, errors: { a: ['b'] }, metadata: {} });
  });
});

describe('time', () => {
  it('formats ISO 8601 with a numeric offset', () => {
    expect(isoWithOffset('2026-11-21T05:31:00.000Z')).toBe('2026-11-21T05:31:00.000+00:00');
    expect(isoWithOffset('2026-07-01T12:00:00.000Z', 'America/New_York')).toBe('2026-07-01T08:00:00.000-04:00');
  });
  it('knows IANA zones', () => {
    expect(isValidTimeZone('Europe/Berlin')).toBe(true);
    expect(isValidTimeZone('Mars/Olympus')).toBe(false);
  });
});
