import { describe, expect, it } from 'vitest';
import * as v from 'valibot';
import { DEFAULT_PER_PAGE, listParamsSchema, MAX_PER_PAGE, paginate, parseIdList, sortRecords } from '../../shared/http/list-params.js';

const schema = listParamsSchema({ order: { values: ['id', 'name'], default: 'id' }, columns: ['id', 'name', 'uuid'] });

describe('parseIdList', () => {
  it('accepts bracket arrays, comma lists, JSON arrays and single ids', () => {
    expect(parseIdList(['1', '2'])).toEqual(['1', '2']);
    expect(parseIdList('1, 2,3')).toEqual(['1', '2', '3']);
    expect(parseIdList('[4,5]')).toEqual([4, 5]);
    expect(parseIdList(6)).toEqual([6]);
    expect(parseIdList('')).toBeUndefined();
  });
});

describe('listParamsSchema', () => {
  it('applies the defaults', () => {
    expect(v.parse(schema, {})).toMatchObject({ page: 1, per_page: DEFAULT_PER_PAGE, order: 'id', root: true });
  });
  it('parses every form of ids into numbers', () => {
    expect(v.parse(schema, { ids: '[1,2]' }).ids).toEqual([1, 2]);
    expect(v.parse(schema, { ids: ['3', '4'] }).ids).toEqual([3, 4]);
    expect(v.parse(schema, { ids: '5,6' }).ids).toEqual([5, 6]);
  });
  it('rejects ids that are not ids', () => {
    expect(v.safeParse(schema, { ids: '1,x' }).success).toBe(false);
  });
  it('enforces the page size bounds', () => {
    expect(v.parse(schema, { per_page: String(MAX_PER_PAGE) }).per_page).toBe(MAX_PER_PAGE);
    expect(v.safeParse(schema, { per_page: String(MAX_PER_PAGE + 1) }).success).toBe(false);
    expect(v.safeParse(schema, { per_page: '0' }).success).toBe(false);
  });
  it('names unknown columns', () => {
    const result = v.safeParse(schema, { columns: 'id,bogus,name' });
    expect(result.success).toBe(false);
    expect(result.issues?.[0]?.message).toBe('unknown column bogus');
  });
  it('rejects an order outside the declared values and a non-boolean root', () => {
    expect(v.safeParse(schema, { order: 'uuid' }).success).toBe(false);
    expect(v.safeParse(schema, { root: 'maybe' }).success).toBe(false);
    expect(v.parse(schema, { root: 'no' }).root).toBe(false);
  });
});

describe('sortRecords and paginate', () => {
  const records = [
    { id: 1, name: 'b' },
    { id: 2, name: null },
    { id: 3, name: 'a' },
    { id: 4, name: 'b' },
  ];
  it('sorts by the attribute with blanks last and ties broken by id', () => {
    expect(sortRecords(records, 'name', 'asc').map((r) => r.id)).toEqual([3, 1, 4, 2]);
    expect(sortRecords(records, 'id', 'desc').map((r) => r.id)).toEqual([4, 3, 2, 1]);
    // Blanks stay last when descending too.
    expect(sortRecords(records, 'name', 'desc').map((r) => r.id)).toEqual([4, 1, 3, 2]);
  });
  it('pages without losing or repeating a record', () => {
    const pages = [1, 2, 3].map((page) => paginate(records, page, 2));
    expect(pages.map((p) => p.items.map((r) => r.id))).toEqual([[1, 2], [3, 4], []]);
    expect(pages[0]).toMatchObject({ total_count: 4, total_pages: 2, per_page: 2 });
  });
});
