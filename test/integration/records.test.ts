import { randomInt } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { countRecords, createRecord, deleteRecord, getRecord, getRecords, nextId, queryAllRecords, queryRecordPage, updateRecord, type ReadStats, type StoredRecord } from '../../shared/db/records.js';
import { ConflictError } from '../../shared/http/errors.js';
import { applyCounterChange } from '../../shared/buyers/counters.js';
import { keys } from '../../shared/db/keys.js';

function record(id: number, extra: Record<string, unknown> = {}): StoredRecord {
  const now = new Date().toISOString();
  return { id, uuid: `uuid-${id}`, created_at: now, updated_at: now, ...extra };
}

describe('record storage', () => {
  it('hands out every id of a sequence once under concurrent creates', async () => {
    const companyId = 1_000_000 + randomInt(1_000_000);
    const ids = await Promise.all(Array.from({ length: 50 }, () => nextId(companyId, 'things')));
    expect([...ids].sort((a, b) => a - b)).toEqual(Array.from({ length: 50 }, (_, i) => i + 1));
  });

  it('keeps companies apart: the same id in two companies are two records', async () => {
    const a = 2_000_000 + randomInt(1_000_000);
    const b = a + 1;
    await createRecord(a, 'things', record(1, { name: 'a' }));
    await createRecord(b, 'things', record(1, { name: 'b' }));
    expect((await getRecord(a, 'things', 1))?.name).toBe('a');
    expect((await getRecord(b, 'things', 1))?.name).toBe('b');
    expect((await queryAllRecords(a, 'things')).map((r) => r.name)).toEqual(['a']);
  });

  it('refuses to overwrite an existing record on create', async () => {
    const companyId = 3_000_000 + randomInt(1_000_000);
    await createRecord(companyId, 'things', record(1));
    await expect(createRecord(companyId, 'things', record(1))).rejects.toThrow();
  });

  it('updates only existing records and reports a missing one as undefined', async () => {
    const companyId = 4_000_000 + randomInt(1_000_000);
    await createRecord(companyId, 'things', record(1, { name: 'old', kept: 'yes' }));
    const updated = await updateRecord(companyId, 'things', 1, { name: 'new', blanked: null });
    expect(updated).toMatchObject({ id: 1, name: 'new', kept: 'yes', blanked: null });
    expect(updated).not.toHaveProperty('pk');
    expect(await updateRecord(companyId, 'things', 2, { name: 'x' })).toBeUndefined();
    expect(await getRecord(companyId, 'things', 2)).toBeUndefined();
  });

  it('lists in id order across more ids than fit one padded digit', async () => {
    const companyId = 5_000_000 + randomInt(1_000_000);
    for (const id of [10, 2, 1, 100]) await createRecord(companyId, 'things', record(id));
    expect((await queryAllRecords(companyId, 'things')).map((r) => r.id)).toEqual([1, 2, 10, 100]);
    expect(await deleteRecord(companyId, 'things', 10)).toBe(true);
    expect(await deleteRecord(companyId, 'things', 10)).toBe(false);
    expect(await countRecords(companyId, 'things')).toBe(3);
  });

  it('keeps unique values unique and moves lookups with the value, all or nothing', async () => {
    const companyId = 6_000_000 + randomInt(1_000_000);
    const lookup = (value: string) => ({ field: 'code', key: keys.lookup(companyId, 'things', 'code', value) });
    await createRecord(companyId, 'things', record(1, { code: 'a' }), [lookup('a')]);
    await expect(createRecord(companyId, 'things', record(2, { code: 'a' }), [lookup('a')])).rejects.toBeInstanceOf(ConflictError);
    // The failed create wrote nothing: neither the record nor a count.
    expect(await getRecord(companyId, 'things', 2)).toBeUndefined();
    expect(await countRecords(companyId, 'things')).toBe(1);

    await createRecord(companyId, 'things', record(2, { code: 'b' }), [lookup('b')]);
    await expect(updateRecord(companyId, 'things', 2, { code: 'a' }, { remove: [lookup('b').key], add: [lookup('a')] })).rejects.toBeInstanceOf(ConflictError);
    expect((await getRecord(companyId, 'things', 2))?.code).toBe('b');
    await updateRecord(companyId, 'things', 1, { code: 'c' }, { remove: [lookup('a').key], add: [lookup('c')] });
    // 'a' is free again.
    await updateRecord(companyId, 'things', 2, { code: 'a' }, { remove: [lookup('b').key], add: [lookup('a')] });
    expect((await getRecord(companyId, 'things', 2))?.code).toBe('a');
  });

  it('reads exactly the items a page needs, and reads on past filtered-out items', async () => {
    const companyId = 7_000_000 + randomInt(1_000_000);
    for (let id = 1; id <= 30; id++) await createRecord(companyId, 'things', record(id, { even: id % 2 === 0 }));
    const stats: ReadStats = { queries: 0, itemsRead: 0 };
    const page = await queryRecordPage({ companyId, resource: 'things', direction: 'desc', limit: 5, afterId: 20, stats });
    expect(page.records.map((r) => r.id)).toEqual([19, 18, 17, 16, 15]);
    expect(stats.itemsRead).toBe(5);

    const filtered = await queryRecordPage({ companyId, resource: 'things', direction: 'asc', limit: 3, accept: (r) => r.even === true });
    expect(filtered.records.map((r) => r.id)).toEqual([2, 4, 6]);
    const tail = await queryRecordPage({ companyId, resource: 'things', direction: 'asc', limit: 10, afterId: 25 });
    expect(tail).toMatchObject({ exhausted: true });
    expect(tail.records.map((r) => r.id)).toEqual([26, 27, 28, 29, 30]);
    expect((await getRecords(companyId, 'things', [3, 99, 1])).map((r) => r.id)).toEqual([3, 1]);
  });

  it('never lists a record\'s companion items (buyer counters share the partition)', async () => {
    const companyId = 8_000_000 + randomInt(1_000_000);
    for (const id of [1, 2, 3]) await createRecord(companyId, 'buyers', record(id));
    for (const id of [1, 3]) await applyCounterChange(companyId, id, 'UTC', new Date(), { increments: { attempt: 1 } });
    expect((await queryAllRecords(companyId, 'buyers')).map((r) => r.id)).toEqual([1, 2, 3]);
    const desc = await queryRecordPage({ companyId, resource: 'buyers', direction: 'desc', limit: 10 });
    expect(desc.records.map((r) => r.id)).toEqual([3, 2, 1]);
    const afterLast = await queryRecordPage({ companyId, resource: 'buyers', direction: 'asc', limit: 10, afterId: 3 });
    expect(afterLast.records).toEqual([]);
  });
});
