import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { db, tableName } from '../../shared/db/client.js';
import { ItemTooLargeError, KeyTooLongError, STORAGE_LIMITS, UnstorableNumberError } from '../../shared/db/item-limits.js';
import { keys } from '../../shared/db/keys.js';
import { countRecords, createRecord, getRecord } from '../../shared/db/records.js';
import type { OperationRequest } from '../../shared/http/request.js';
import { defineResource } from '../../shared/resources/define.js';
import { crudOperations, RECORD_BUDGET_BYTES } from '../../shared/resources/engine.js';
import { createTestCompany } from '../fixtures/company.js';

/**
 * The storage guard on the document client and the engine's record budget, against DynamoDB
 * Local: what would be a ValidationException (a 500) is a 4xx, and nothing is written.
 */
describe('storage limits on every DynamoDB command', () => {
  it('refuses a key longer than DynamoDB allows before sending it', async () => {
    await expect(db.send(new GetCommand({ TableName: tableName, Key: { pk: 'k'.repeat(STORAGE_LIMITS.partitionKeyBytes + 1), sk: 'x' } }))).rejects.toBeInstanceOf(KeyTooLongError);
    await expect(db.send(new GetCommand({ TableName: tableName, Key: { pk: 'k', sk: 's'.repeat(STORAGE_LIMITS.sortKeyBytes + 1) } }))).rejects.toBeInstanceOf(KeyTooLongError);
    // Multi-byte characters count in bytes, as DynamoDB counts them.
    await expect(db.send(new GetCommand({ TableName: tableName, Key: { pk: 'é'.repeat(1_100), sk: 'x' } }))).rejects.toBeInstanceOf(KeyTooLongError);
    const fine = await db.send(new GetCommand({ TableName: tableName, Key: { pk: 'k'.repeat(2_000), sk: 'x' } }));
    expect(fine.Item).toBeUndefined();
  });

  it('refuses numbers DynamoDB cannot store, naming the attribute', async () => {
    for (const value of [1e200, Number.POSITIVE_INFINITY, Number.NaN, 1e-200]) {
      const attempt = db.send(new PutCommand({ TableName: tableName, Item: { pk: 'numbers-test', sk: String(value), amount: value } }));
      await expect(attempt).rejects.toBeInstanceOf(UnstorableNumberError);
      await expect(attempt.catch((error: UnstorableNumberError) => Object.keys(error.errors))).resolves.toEqual(['amount']);
    }
  });

  it('refuses an item over the storage budget with 413 naming its largest attribute, and writes nothing', async () => {
    const company = await createTestCompany('storage');
    const record = { id: 1, uuid: 'u', created_at: 'c', updated_at: 'u', notes: 'n'.repeat(STORAGE_LIMITS.itemBytes), name: 'small' };
    const error = await createRecord(company.id, 'offers', record).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ItemTooLargeError);
    expect((error as ItemTooLargeError).statusCode).toBe(413);
    expect(Object.keys((error as ItemTooLargeError).errors)).toEqual(['notes']);
    expect(await getRecord(company.id, 'offers', 1)).toBeUndefined();
    expect(await countRecords(company.id, 'offers')).toBe(0);
    const raw = await db.send(new GetCommand({ TableName: tableName, Key: keys.record(company.id, 'offers', 1) }));
    expect(raw.Item).toBeUndefined();
  });
});

describe('the record budget of the CRUD engine', () => {
  // A resource of free-form lists, so one request can carry a record past the budget.
  const notes = defineResource({
    name: 'budget_notes',
    group: 'offers',
    root: 'budget_note',
    plural: 'budget_notes',
    type: 'BudgetNote',
    operations: ['create', 'update', 'show'],
    createSchema: v.object({ lines: v.array(v.string()) }),
    updateSchema: v.object({ lines: v.optional(v.array(v.string())) }),
    defaults: { lines: [] },
    columns: ['lines'],
  });
  const operations = crudOperations(notes);

  function request(companyId: number, params: Record<string, unknown>, id?: number): OperationRequest {
    return {
      route: { method: 'POST', path: '/api/v1/budget_notes', group: 'offers', auth: 'basic', operation: 'budget_notes.create', permission: 'company' },
      params,
      pathParams: id === undefined ? {} : { id: String(id) },
      auth: { companyId, method: 'api_key' },
      requestId: 'test',
      now: new Date(),
      url: 'http://localhost/api/v1/budget_notes',
      headers: {},
    };
  }

  const lines = (count: number) => Array.from({ length: count }, () => 'l'.repeat(1_000));

  it(`refuses a create over ${RECORD_BUDGET_BYTES} bytes with 413 naming the field, and an update that would grow a record past it`, async () => {
    const company = await createTestCompany('budget');
    const tooBig = await operations['budget_notes.create']!(request(company.id, { lines: lines(120) })).catch((caught: unknown) => caught);
    expect(tooBig).toBeInstanceOf(ItemTooLargeError);
    expect(Object.keys((tooBig as ItemTooLargeError).errors)).toEqual(['lines']);
    expect(await countRecords(company.id, 'budget_notes')).toBe(0);

    const created = await operations['budget_notes.create']!(request(company.id, { lines: lines(60) }));
    expect(created.kind).toBe('record');
    const grown = await operations['budget_notes.update']!(request(company.id, { lines: lines(110) }, 1)).catch((caught: unknown) => caught);
    expect(grown).toBeInstanceOf(ItemTooLargeError);
    const stored = await getRecord(company.id, 'budget_notes', 1);
    expect((stored?.lines as string[]).length).toBe(60);
  });
});
