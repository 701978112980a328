import { describe, expect, it } from 'vitest';
import { indexWriteUnits, type IndexDesign } from '../../bench/index-writes.js';
import { tableDesign } from '../../shared/db/table-design.js';

const all: IndexDesign = { indexName: 'byAll', partitionKey: 'apk', sortKey: 'ask', projection: 'ALL' };
const keysOnly: IndexDesign = { indexName: 'byKeys', partitionKey: 'kpk', sortKey: 'ksk', projection: 'KEYS_ONLY' };
const both = [all, keysOnly];

const base = { pk: 'C#1#calls', sk: 'CALL#1', apk: 'C#1#buyer#2', ask: '2024-01-01', kpk: 'C#1#caller#+14155550100', ksk: '2024-01-01', status: 'ringing' };
/** Over 1 KB whole, but its keys alone are well under. */
const large = { ...base, notes: 'x'.repeat(1500) };

describe('indexWriteUnits (bench: global secondary index writes as DynamoDB bills them)', () => {
  it('puts a new item into an ALL index: 1 entry', () => {
    expect(indexWriteUnits(undefined, { pk: 'a', sk: 'b', apk: 'x', ask: 'y' }, [all])).toEqual({ total: 1, byIndex: { byAll: 1 } });
  });

  it('puts a new item into both indexes: 1 each', () => {
    expect(indexWriteUnits(undefined, base, both)).toEqual({ total: 2, byIndex: { byAll: 1, byKeys: 1 } });
  });

  it('rewrites the ALL entry, not the KEYS_ONLY one, when a non-key attribute changes', () => {
    expect(indexWriteUnits(base, { ...base, status: 'answered' }, [all])).toEqual({ total: 1, byIndex: { byAll: 1 } });
    expect(indexWriteUnits(base, { ...base, status: 'answered' }, [keysOnly])).toEqual({ total: 0, byIndex: {} });
    expect(indexWriteUnits(base, { ...base, duration: 90 }, both)).toEqual({ total: 1, byIndex: { byAll: 1 } });
  });

  it('deletes the entry when the index keys are removed (or the item is deleted)', () => {
    const { apk: _apk, ask: _ask, kpk: _kpk, ksk: _ksk, ...unindexed } = base;
    expect(indexWriteUnits(base, unindexed, [all])).toEqual({ total: 1, byIndex: { byAll: 1 } });
    expect(indexWriteUnits(base, { ...base, ask: undefined }, [all])).toEqual({ total: 1, byIndex: { byAll: 1 } });
    expect(indexWriteUnits(base, undefined, both)).toEqual({ total: 2, byIndex: { byAll: 1, byKeys: 1 } });
  });

  it('deletes and puts (2 entries) when an index key value changes, whatever the projection', () => {
    expect(indexWriteUnits(base, { ...base, ask: '2024-01-02' }, [all])).toEqual({ total: 2, byIndex: { byAll: 2 } });
    expect(indexWriteUnits(base, { ...base, kpk: 'C#1#caller#+14155550101' }, [keysOnly])).toEqual({ total: 2, byIndex: { byKeys: 2 } });
  });

  it('writes nothing for an unchanged item (a write whose condition failed)', () => {
    expect(indexWriteUnits(base, { ...base }, both)).toEqual({ total: 0, byIndex: {} });
    expect(indexWriteUnits(large, structuredClone(large), both)).toEqual({ total: 0, byIndex: {} });
    expect(indexWriteUnits(undefined, undefined, both)).toEqual({ total: 0, byIndex: {} });
  });

  it('bills an item over 1 KB 2 units in an ALL index, 1 in a KEYS_ONLY one (its keys alone)', () => {
    expect(indexWriteUnits(undefined, large, both)).toEqual({ total: 3, byIndex: { byAll: 2, byKeys: 1 } });
    expect(indexWriteUnits(large, { ...large, status: 'answered' }, both)).toEqual({ total: 2, byIndex: { byAll: 2 } });
    // Delete of the old entry (large) and put of the new (small), each by its own size.
    expect(indexWriteUnits(large, { ...base, ask: '2024-01-02' }, [all])).toEqual({ total: 3, byIndex: { byAll: 3 } });
  });

  it('writes nothing for an item that is in no index (only one of an index key pair counts as none)', () => {
    const plain = { pk: 'C#1', sk: 'COUNTER#1', attempts: 1 };
    expect(indexWriteUnits(undefined, plain, both)).toEqual({ total: 0, byIndex: {} });
    expect(indexWriteUnits(plain, { ...plain, attempts: 2 }, both)).toEqual({ total: 0, byIndex: {} });
    expect(indexWriteUnits(plain, { ...plain, apk: 'x' }, both)).toEqual({ total: 0, byIndex: {} });
  });

  it('rewrites an INCLUDE entry when a listed attribute changes, and not for any other', () => {
    const include: IndexDesign = { indexName: 'byInclude', partitionKey: 'ipk', sortKey: 'isk', projection: 'INCLUDE', nonKeyAttributes: ['offer_id'] };
    const item = { pk: 'C#1#calls', sk: '1', ipk: 'C#1#live', isk: '1', offer_id: 4, status: 'ringing', notes: 'x'.repeat(1500) };
    expect(indexWriteUnits(undefined, item, [include])).toEqual({ total: 1, byIndex: { byInclude: 1 } });
    expect(indexWriteUnits(item, { ...item, status: 'answered' }, [include])).toEqual({ total: 0, byIndex: {} });
    expect(indexWriteUnits(item, { ...item, offer_id: 5 }, [include])).toEqual({ total: 1, byIndex: { byInclude: 1 } });
  });

  it('follows the real table design (its index names and projections)', () => {
    const indexes: readonly IndexDesign[] = tableDesign.globalIndexes;
    const narrowIndexes = indexes.filter((index) => index.projection !== 'ALL');
    const allIndexes = indexes.filter((index) => index.projection === 'ALL');
    expect(narrowIndexes.map((index) => index.indexName)).toContain('gsi3');
    expect(allIndexes.length).toBeGreaterThan(0);
    // An item in every index of the table.
    const item: Record<string, unknown> = { pk: 'C#1#calls', sk: 'CALL#1', status: 'ringing' };
    for (const index of tableDesign.globalIndexes) {
      item[index.partitionKey] = `${index.indexName}#p`;
      item[index.sortKey] = `${index.indexName}#s`;
    }
    const everyIndex = Object.fromEntries(tableDesign.globalIndexes.map((index) => [index.indexName, 1]));
    expect(indexWriteUnits(undefined, item)).toEqual({ total: tableDesign.globalIndexes.length, byIndex: everyIndex });
    // A change of an attribute no narrow index projects: the ALL entries are rewritten, gsi3's is not.
    const changed = indexWriteUnits(item, { ...item, status: 'answered' });
    expect(changed.byIndex).toEqual(Object.fromEntries(allIndexes.map((index) => [index.indexName, 1])));
    expect(changed.byIndex.gsi3).toBeUndefined();
    // gsi3 projects the offer: changing it rewrites the entry.
    expect(indexWriteUnits(item, { ...item, offer_id: 9 }).byIndex.gsi3).toBe(1);
    // Over 1 KB: 2 units per ALL entry, 1 for gsi3.
    const big = { ...item, notes: 'x'.repeat(1500) };
    const put = indexWriteUnits(undefined, big);
    expect(put.byIndex.gsi3).toBe(1);
    for (const index of allIndexes) expect(put.byIndex[index.indexName]).toBe(2);
  });
});
