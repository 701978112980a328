import { randomInt } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { deleteRecord, getRecord, nextId, putNewRecord, queryAllRecords, updateRecord, type StoredRecord } from '../../shared/db/records.js';

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
    await putNewRecord(a, 'things', record(1, { name: 'a' }));
    await putNewRecord(b, 'things', record(1, { name: 'b' }));
    expect((await getRecord(a, 'things', 1))?.name).toBe('a');
    expect((await getRecord(b, 'things', 1))?.name).toBe('b');
    expect((await queryAllRecords(a, 'things')).map((r) => r.name)).toEqual(['a']);
  });

  it('refuses to overwrite an existing record on create', async () => {
    const companyId = 3_000_000 + randomInt(1_000_000);
    await putNewRecord(companyId, 'things', record(1));
    await expect(putNewRecord(companyId, 'things', record(1))).rejects.toThrow();
  });

  it('updates only existing records and reports a missing one as undefined', async () => {
    const companyId = 4_000_000 + randomInt(1_000_000);
    await putNewRecord(companyId, 'things', record(1, { name: 'old', kept: 'yes' }));
    const updated = await updateRecord(companyId, 'things', 1, { name: 'new', blanked: null });
    expect(updated).toMatchObject({ id: 1, name: 'new', kept: 'yes', blanked: null });
    expect(updated).not.toHaveProperty('pk');
    expect(await updateRecord(companyId, 'things', 2, { name: 'x' })).toBeUndefined();
    expect(await getRecord(companyId, 'things', 2)).toBeUndefined();
  });

  it('lists in id order across more ids than fit one padded digit', async () => {
    const companyId = 5_000_000 + randomInt(1_000_000);
    for (const id of [10, 2, 1, 100]) await putNewRecord(companyId, 'things', record(id));
    expect((await queryAllRecords(companyId, 'things')).map((r) => r.id)).toEqual([1, 2, 10, 100]);
    expect(await deleteRecord(companyId, 'things', 10)).toMatchObject({ id: 10 });
    expect(await deleteRecord(companyId, 'things', 10)).toBeUndefined();
  });
});
