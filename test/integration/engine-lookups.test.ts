import { randomInt, randomUUID } from 'node:crypto';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import * as v from 'valibot';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { db, tableName } from '../../shared/db/client.js';
import { keys } from '../../shared/db/keys.js';
import { countRecords } from '../../shared/db/records.js';
import { ConflictError } from '../../shared/http/errors.js';
import { presentString } from '../../shared/http/param-schemas.js';
import type { OperationRequest, Params } from '../../shared/http/request.js';
import { ALL_OPERATIONS, defineResource } from '../../shared/resources/define.js';
import { crudOperations, lookupAttributesChanged } from '../../shared/resources/engine.js';

/**
 * The engine's lookup attributes (copied into unique lookup items, kept in step on update) and
 * the `acquire` hook (something bought before the write, given back when the write fails), on a
 * resource declared here so the engine is tested apart from any real resource.
 */
const acquired: string[] = [];
const released: string[] = [];

const gadgets = defineResource({
  name: 'gadgets',
  group: 'numbers',
  root: 'gadget',
  plural: 'gadgets',
  type: 'Gadget',
  operations: ALL_OPERATIONS,
  createSchema: v.object({ code: presentString, color: v.optional(v.string()), size: v.optional(v.string()) }),
  updateSchema: v.object({ code: v.optional(presentString), color: v.optional(v.string()), size: v.optional(v.string()) }),
  defaults: { color: null, size: null },
  columns: ['code', 'color', 'size', 'serial'],
  unique: [{ field: 'code', scope: 'global' }],
  lookupAttributes: (record) => ({ color: record.color ?? null }),
  behaviour: async () => ({
    acquire: async (_context, draft) => {
      const code = String(draft.record.code);
      acquired.push(code);
      return { fields: { serial: `S-${code}` }, release: async () => void released.push(code) };
    },
  }),
});

const operations = crudOperations(gadgets);

function request(companyId: number, operation: string, params: Params, id?: number): OperationRequest {
  return {
    route: { method: 'GET', path: '/api/v1/gadgets', group: 'numbers', auth: 'basic', operation: `gadgets.${operation}`, permission: 'company' },
    params,
    pathParams: id === undefined ? {} : { id: String(id) },
    auth: { companyId, method: 'api_key' },
    requestId: 'test',
    now: new Date(),
      url: 'http://test/api/v1/gadgets',
    headers: {},
};
}

async function run(companyId: number, operation: string, params: Params, id?: number): Promise<Record<string, unknown>> {
  const result = await operations[`gadgets.${operation}`]!(request(companyId, operation, params, id));
  if (result.kind !== 'record') throw new Error('expected a record');
  return result.record;
}

async function lookupItem(code: string) {
  return (await db.send(new GetCommand({ TableName: tableName, Key: keys.globalLookup('gadgets', 'code', code) }))).Item;
}

/** The partition keys of the items a block's transactions write. */
async function transactedKeysOf(block: () => Promise<unknown>): Promise<string[]> {
  const spy = vi.spyOn(db, 'send');
  try {
    await block();
    return spy.mock.calls.flatMap(([command]) => {
      const items = ((command as { input?: { TransactItems?: Record<string, any>[] } }).input?.TransactItems ?? []) as Record<string, any>[];
      return items.map((item) => String(Object.values(item)[0].Key?.pk ?? Object.values(item)[0].Item?.pk));
    });
  } finally {
    spy.mockRestore();
  }
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe('engine: lookup attributes', () => {
  it('compares the attributes a record\'s lookups copy, before and after a write (pure)', () => {
    expect(lookupAttributesChanged(gadgets, { color: 'red', size: 'S' }, { color: 'red', size: 'L' })).toBe(false);
    expect(lookupAttributesChanged(gadgets, { color: 'red' }, { color: 'blue' })).toBe(true);
    expect(lookupAttributesChanged({ ...gadgets, lookupAttributes: undefined }, { color: 'red' }, { color: 'blue' })).toBe(false);
  });

  it('copies them into the lookup item on create, with the record it points at', async () => {
    const companyId = 7_000_000 + randomInt(1_000_000);
    const code = `g-${randomUUID()}`;
    const created = await run(companyId, 'create', { code, color: 'red', size: 'S' });
    expect(await lookupItem(code)).toEqual({
      ...keys.globalLookup('gadgets', 'code', code),
      company_id: companyId,
      resource: 'gadgets',
      id: created.id,
      color: 'red',
    });
  });

  it('re-writes the lookup in the update\'s transaction when a copied attribute changes, and only then', async () => {
    const companyId = 7_000_000 + randomInt(1_000_000);
    const code = `g-${randomUUID()}`;
    const created = await run(companyId, 'create', { code, color: 'red', size: 'S' });
    const id = Number(created.id);

    // Every update is a transaction (its change log entry rides in it); the lookup joins it only when its copy changes.
    const lookupPk = keys.globalLookup('gadgets', 'code', code).pk;
    const sizeOnly = await transactedKeysOf(() => run(companyId, 'update', { size: 'L' }, id));
    expect(sizeOnly).toHaveLength(2);
    expect(sizeOnly).not.toContain(lookupPk);
    expect((await lookupItem(code))?.color).toBe('red');

    const recolored = await transactedKeysOf(() => run(companyId, 'update', { color: 'blue' }, id));
    expect(recolored).toHaveLength(3);
    expect(recolored).toContain(lookupPk);
    expect(await lookupItem(code)).toMatchObject({ company_id: companyId, id, resource: 'gadgets', color: 'blue' });
    expect(await run(companyId, 'show', {}, id)).toMatchObject({ color: 'blue', size: 'L' });
  });

  it('moves the lookup with a changed unique value, carrying the attributes as they are after the write', async () => {
    const companyId = 7_000_000 + randomInt(1_000_000);
    const code = `g-${randomUUID()}`;
    const renamed = `g-${randomUUID()}`;
    const created = await run(companyId, 'create', { code, color: 'red' });
    await run(companyId, 'update', { code: renamed, color: 'green' }, Number(created.id));
    expect(await lookupItem(code)).toBeUndefined();
    expect(await lookupItem(renamed)).toMatchObject({ id: created.id, color: 'green' });
  });

  it('deletes the lookup with the record', async () => {
    const companyId = 7_000_000 + randomInt(1_000_000);
    const code = `g-${randomUUID()}`;
    const created = await run(companyId, 'create', { code, color: 'red' });
    await run(companyId, 'delete', {}, Number(created.id));
    expect(await lookupItem(code)).toBeUndefined();
  });
});

describe('engine: acquire hook', () => {
  it('stores the fields acquire returns and releases nothing on success', async () => {
    const companyId = 7_000_000 + randomInt(1_000_000);
    const code = `g-${randomUUID()}`;
    const created = await run(companyId, 'create', { code });
    expect(created.serial).toBe(`S-${code}`);
    expect(acquired).toContain(code);
    expect(released).not.toContain(code);
    expect((await run(companyId, 'show', {}, Number(created.id))).serial).toBe(`S-${code}`);
  });

  it('gives back what it acquired when the write fails on a taken unique value (409)', async () => {
    const first = 7_000_000 + randomInt(1_000_000);
    const second = first + 1;
    const code = `g-${randomUUID()}`;
    await run(first, 'create', { code });
    await expect(run(second, 'create', { code })).rejects.toBeInstanceOf(ConflictError);
    expect(acquired.filter((value) => value === code)).toHaveLength(2);
    expect(released.filter((value) => value === code)).toHaveLength(1);
    expect(await countRecords(second, 'gadgets')).toBe(0);
    expect((await lookupItem(code))?.company_id).toBe(first);
  });

  it('acquires nothing when the input is invalid', async () => {
    const companyId = 7_000_000 + randomInt(1_000_000);
    const before = acquired.length;
    await expect(run(companyId, 'create', { code: '' })).rejects.toMatchObject({ statusCode: 422 });
    expect(acquired).toHaveLength(before);
  });
});
