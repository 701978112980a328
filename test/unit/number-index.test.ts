import { describe, expect, it } from 'vitest';
import { keys, padId } from '../../shared/db/keys.js';
import { numberIndexAttributes, numberIndexRepair } from '../../shared/numbers/number-index.js';

describe('number index entries (shared/numbers/number-index.ts)', () => {
  it('lists a number under its offer (gsi1) and its pool (gsi2), by padded id, and only those it has', () => {
    expect(numberIndexAttributes(7, { id: 12, offer_id: 3, ring_pool_id: 5 })).toEqual({
      gsi1pk: keys.numbersOfOffer(7, 3),
      gsi1sk: padId(12),
      gsi2pk: keys.numbersOfPool(7, 5),
      gsi2sk: padId(12),
    });
    expect(numberIndexAttributes(7, { id: 12, offer_id: 3, ring_pool_id: null })).toEqual({ gsi1pk: keys.numbersOfOffer(7, 3), gsi1sk: padId(12) });
    expect(numberIndexAttributes(7, { id: 12, offer_id: null })).toEqual({});
    expect(keys.numbersOfOffer(7, 3)).not.toBe(keys.numbersOfPool(7, 3));
  });

  it('repairs missing, wrong and stale entries, and leaves right ones alone', () => {
    const record = { id: 12, offer_id: 3, ring_pool_id: 5 };
    const entries = numberIndexAttributes(7, record);
    expect(numberIndexRepair(7, record)).toEqual({ set: entries, remove: [] });
    expect(numberIndexRepair(7, { ...record, ...entries })).toBeUndefined();
    expect(numberIndexRepair(7, { ...record, ...entries, gsi2pk: keys.numbersOfPool(7, 6) })).toEqual({ set: entries, remove: [] });
    const cleared = { ...record, ...entries, ring_pool_id: null };
    expect(numberIndexRepair(7, cleared)).toEqual({ set: { gsi1pk: entries.gsi1pk, gsi1sk: entries.gsi1sk }, remove: ['gsi2pk', 'gsi2sk'] });
  });
});
