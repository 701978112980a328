import { describe, expect, it } from 'vitest';
import { conditionAttributes, recordPredicate, withoutHidden, type ListConditions } from '../../shared/resources/list-conditions.js';

/** What a list keeps, and which stored attributes a projected read must fetch to decide it. */
const none: ListConditions = { equals: {}, fulltextFields: ['name', 'number'] };

describe('conditionAttributes', () => {
  it('names nothing without conditions, so an order alone projects only id and its column', () => {
    expect(conditionAttributes(none)).toEqual([]);
    expect(recordPredicate(none)).toBeUndefined();
  });

  it('names the filters, created_at for a time range and the fulltext fields for a search', () => {
    expect(conditionAttributes({ ...none, equals: { paused: true, offer_id: 3 } })).toEqual(['paused', 'offer_id']);
    expect(conditionAttributes({ ...none, createdTo: new Date('2026-01-01T00:00:00Z') })).toEqual(['created_at']);
    expect(conditionAttributes({ ...none, fulltext: 'acme' })).toEqual(['id', 'name', 'number']);
    // A blank search searches nothing.
    expect(conditionAttributes({ ...none, fulltext: '  ' })).toEqual([]);
  });

  it('names every attribute the predicate reads: a record cut to them is judged as the whole record', () => {
    const conditions: ListConditions = { equals: { paused: false }, createdFrom: new Date('2026-01-01T00:00:00Z'), fulltext: 'bra', fulltextFields: ['name', 'number'] };
    const accept = recordPredicate(conditions)!;
    const records = [
      { id: 1, name: 'Bravo', number: '+1415', paused: false, created_at: '2026-02-01T00:00:00.000Z', tier: 3 },
      { id: 2, name: 'Bravo', number: '+1415', paused: true, created_at: '2026-02-01T00:00:00.000Z', tier: 3 },
      { id: 3, name: 'Alpha', number: '+1415', paused: false, created_at: '2026-02-01T00:00:00.000Z', tier: 3 },
      { id: 4, name: 'Bravo', number: '+1415', paused: false, created_at: '2025-12-01T00:00:00.000Z', tier: 3 },
    ];
    const attributes = ['id', ...conditionAttributes(conditions)];
    const cut = records.map((record) => Object.fromEntries(Object.entries(record).filter(([name]) => attributes.includes(name))));
    expect(cut.map(accept)).toEqual(records.map(accept));
    expect(records.map(accept)).toEqual([true, false, false, false]);
  });
});

describe('fulltext on shown names', () => {
  it('searches a derived column as it is shown, a stored value winning over the derived one', () => {
    const derive = (record: Record<string, unknown>) => ({ name: String(record.integration_type).replace(/_/g, ' ') });
    const accept = recordPredicate({ ...none, fulltext: 'crm one', fulltextFields: ['integration_type', 'name'], derive })!;
    expect([{ id: 1, integration_type: 'crm_one' }, { id: 2, integration_type: 'crm_two' }, { id: 3, integration_type: 'forms', name: 'CRM one mirror' }].map(accept)).toEqual([true, false, true]);
  });
});

describe('withoutHidden', () => {
  const hidden = { hides: (record: Record<string, unknown>) => record.contact_field_id === 7, attributes: ['contact_field_id'] };
  const records = [
    { id: 1, contact_field_id: 7, name: 'acme' },
    { id: 2, contact_field_id: 8, name: 'acme' },
    { id: 3, contact_field_id: 8, name: 'other' },
  ];

  it('leaves the predicate as it is when nothing is hidden (an unfiltered list stays unfiltered)', () => {
    expect(withoutHidden(undefined, undefined)).toBeUndefined();
    const accept = recordPredicate({ ...none, fulltext: 'acme' })!;
    expect(withoutHidden(accept, undefined)).toBe(accept);
  });

  it('drops the hidden records, alone or with the conditions', () => {
    expect(records.map(withoutHidden(undefined, hidden)!)).toEqual([false, true, true]);
    expect(records.map(withoutHidden(recordPredicate({ ...none, fulltext: 'acme' }), hidden)!)).toEqual([false, true, false]);
  });
});
