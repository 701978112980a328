import { describe, expect, it } from 'vitest';
import { valueSize } from '../../shared/db/item-limits.js';
import { boundChanges, CHANGE_LOG_LIMITS, FILTERED, isLogged, objectChanges, sameValue, TRUNCATED, type LogPolicy } from '../../shared/resources/change-diff.js';

const policy: LogPolicy = { shown: new Set(['id', 'name', 'tags', 'settings', 'updated_at', 'secret', 'api_secret_name']), hidden: new Set(['secret']) };

describe('objectChanges', () => {
  it('create: every set value as [null, value], hidden ones filtered, bookkeeping left out', () => {
    expect(objectChanges(policy, 'create', undefined, { id: 1, name: 'A', tags: null, secret: 's3cr3t', token: 't', company_id: 9, user_updated_at: 'x' })).toEqual({
      id: [null, 1],
      name: [null, 'A'],
      secret: [null, FILTERED],
      // Not a shown column: filtered too.
      token: [null, FILTERED],
    });
  });

  it('update: only what changed, maps compared without regard to key order', () => {
    const before = { id: 1, name: 'A', settings: { a: 1, b: 2 }, tags: ['x'], secret: 'old', updated_at: 't1' };
    const after = { id: 1, name: 'B', settings: { b: 2, a: 1 }, tags: ['x'], secret: 'old', updated_at: 't2' };
    expect(objectChanges(policy, 'update', before, after)).toEqual({ name: ['A', 'B'], updated_at: ['t1', 't2'] });
    expect(objectChanges(policy, 'update', { secret: 'a', tags: ['x'] }, { secret: 'b', tags: ['x', 'y'] })).toEqual({ secret: [FILTERED, FILTERED], tags: [['x'], ['x', 'y']] });
    // A value set to null (blanked) and one newly set.
    expect(objectChanges(policy, 'update', { name: 'A' }, { name: null, tags: [] })).toEqual({ name: ['A', null], tags: [null, []] });
  });

  it('delete: every value the record had as [value, null]', () => {
    expect(objectChanges(policy, 'delete', { id: 3, name: 'C', tags: null, secret: 'x' }, undefined)).toEqual({ id: [3, null], name: ['C', null], secret: [FILTERED, null] });
  });

  it('filters names that hold credentials even when a resource shows them', () => {
    expect(isLogged(policy, 'api_secret_name')).toBe(false);
    expect(isLogged({ shown: new Set(['audio_base64', 'password']), hidden: new Set() }, 'audio_base64')).toBe(false);
    expect(isLogged(policy, 'name')).toBe(true);
    expect(sameValue(undefined, null)).toBe(true);
    expect(sameValue({ a: [1, { c: 1, d: 2 }] }, { a: [1, { d: 2, c: 1 }] })).toBe(true);
    expect(sameValue([1, 2], [2, 1])).toBe(false);
  });
});

describe('boundChanges', () => {
  it('leaves small changes as they are', () => {
    const changes = { name: ['A', 'B'] as [unknown, unknown] };
    expect(boundChanges(changes)).toEqual({ changes, truncated: false });
  });

  it('shortens a long string and replaces a large structure with a marker', () => {
    const long = 'y'.repeat(50_000);
    const big = Array.from({ length: 2_000 }, (_, index) => index);
    const { changes, truncated } = boundChanges({ description: [null, long], ids: [big, []] });
    expect(truncated).toBe(true);
    expect(changes.description![1]).toBe(`${'y'.repeat(CHANGE_LOG_LIMITS.stringChars)}…${TRUNCATED}`);
    expect(changes.ids![0]).toMatch(/^\[TRUNCATED\] \d+ bytes$/);
    expect(changes.ids![1]).toEqual([]);
  });

  it('keeps the entry within its budget whatever the record holds, naming every changed field', () => {
    // 200 fields just under the per-value limit: far over the entry's budget.
    const value = 'z'.repeat(CHANGE_LOG_LIMITS.valueBytes - 10);
    const changes = Object.fromEntries(Array.from({ length: 200 }, (_, index) => [`field_${index}`, [value, `${value}!`] as [unknown, unknown]]));
    const bounded = boundChanges(changes);
    expect(bounded.truncated).toBe(true);
    expect(Object.keys(bounded.changes)).toEqual(Object.keys(changes));
    expect(bounded.changes.field_0).toEqual(changes.field_0);
    expect(bounded.changes.field_199).toEqual([TRUNCATED, TRUNCATED]);
    expect(valueSize(bounded.changes)).toBeLessThanOrEqual(CHANGE_LOG_LIMITS.entryBytes);
  });

  it('leaves fields out once even their names would pass the entry budget', () => {
    const changes = Object.fromEntries(Array.from({ length: 20_000 }, (_, index) => [`a_rather_long_field_name_${index}`, ['x'.repeat(10), null] as [unknown, unknown]]));
    const bounded = boundChanges(changes);
    expect(bounded.truncated).toBe(true);
    expect(Object.keys(bounded.changes).length).toBeLessThan(20_000);
    expect(valueSize(bounded.changes)).toBeLessThanOrEqual(CHANGE_LOG_LIMITS.entryBytes);
    // Whole values first, then names alone.
    expect(bounded.changes.a_rather_long_field_name_0).toEqual(['x'.repeat(10), null]);
    expect(Object.values(bounded.changes).at(-1)).toEqual([TRUNCATED, TRUNCATED]);
  });
});
