import type { Context, SQSEvent } from 'aws-lambda';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { backgroundWork, drainLocalWork, setBackgroundWork } from '../../shared/adapters/background-work.js';
import { clock } from '../../shared/adapters/clock.js';
import type { TableWork } from '../../shared/adapters/local/table-work.js';
import { advanceFieldCleanup } from '../../shared/contact-fields/field-cleanup.js';
import { STALLED_CLEANUP_MS, sweepFieldCleanups } from '../../shared/contact-fields/field-cleanup-queue.js';
import { pendingCleanups } from '../../shared/contact-fields/field-cleanup-store.js';
import { DeleteCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from '../../shared/db/client.js';
import { keys } from '../../shared/db/keys.js';
import { countRecords, getLookup, queryAllRecords } from '../../shared/db/records.js';
import { createTestCompany, type TestCompany } from '../fixtures/company.js';
import { expect404, recordOf } from '../fixtures/envelope.js';
import { call, useGateway } from '../fixtures/gateway.js';
import { asCompany } from '../fixtures/leads.js';
import { createThrough } from '../fixtures/records.js';
import { storeLead } from '../fixtures/stored-leads.js';

/**
 * A contact field's DELETE (docs/resources.md, "Contact fields"): one write and a queued cleanup,
 * answered at once; the field's values are hidden from then on and deleted in the background, a
 * page at a time (here 5 values a page, one page a step, so a cleanup takes several steps), then
 * the views forget the field. The work is safe to run twice, resumes from its cursor, is queued
 * again by the recovery sweep when queueing failed, and touches the deleting company only.
 */
const gateway = useGateway();
const as = (company: TestCompany, method: string, path: string, json?: unknown) => asCompany(gateway, company, method, path, json);

beforeEach(() => {
  process.env.CONTACT_FIELD_CLEANUP_PAGE_SIZE = '5';
  process.env.CONTACT_FIELD_CLEANUP_BUDGET_MS = '0';
});
afterEach(() => {
  delete process.env.CONTACT_FIELD_CLEANUP_PAGE_SIZE;
  delete process.env.CONTACT_FIELD_CLEANUP_BUDGET_MS;
  setBackgroundWork();
});

const LEADS = 12;
let callers = 0;

/** A company with two fields (`doomed`, `kept`), a value of each on each of LEADS leads (interleaved ids), and two views. */
async function world(label: string) {
  const company = await createTestCompany(label);
  const doomed = await createThrough(gateway, company, '/api/v1/contact_fields', { name: 'Age', key: 'age', field_type: 'integer' });
  const kept = await createThrough(gateway, company, '/api/v1/contact_fields', { name: 'Tier', key: 'tier', field_type: 'string' });
  const values: { doomed: Record<string, any>[]; kept: Record<string, any>[] } = { doomed: [], kept: [] };
  for (let index = 0; index < LEADS; index++) {
    const lead = await storeLead(company.id, clock().now(), { caller_id: `+1415558${String(1000 + ++callers)}` });
    values.doomed.push(await createThrough(gateway, company, '/api/v1/contact_field_values', { contact_field_id: doomed.id, lead_id: lead.id, value: index }));
    values.kept.push(await createThrough(gateway, company, '/api/v1/contact_field_values', { contact_field_id: kept.id, lead_id: lead.id, value: `t${index}` }));
  }
  const both = await createThrough(gateway, company, '/api/v1/contact_field_views', { name: 'Both', contact_field_ids: [kept.id, doomed.id], applies_to: 'leads' });
  const keptOnly = await createThrough(gateway, company, '/api/v1/contact_field_views', { name: 'Tier only', contact_field_ids: [kept.id], applies_to: 'leads' });
  return { company, doomed, kept, values, views: { both, keptOnly } };
}

type World = Awaited<ReturnType<typeof world>>;

const storedValues = (company: TestCompany) => queryAllRecords(company.id, 'contact_field_values');
const ownerLookup = (company: TestCompany, value: Record<string, any>) => getLookup(keys.lookup(company.id, 'contact_field_values', 'field_owner', `${value.contact_field_id}:lead:${value.lead_id}`));
const listed = async (company: TestCompany, query = '') => {
  const reply = await as(company, 'GET', `/api/v1/contact_field_values?per_page=100${query}`);
  expect(reply.status, reply.text).toBe(200);
  return { ids: (reply.body.contact_field_values as Array<{ id: number }>).map((row) => row.id), total: reply.body.metadata.total_count as number };
};
const viewFields = async (company: TestCompany, id: number) => recordOf(await as(company, 'GET', `/api/v1/contact_field_views/${id}`), 'contact_field_view');

/** The world after its cleanup: only the kept field's values, their lookups and count, the views without the field. */
async function expectCleanedUp(w: World): Promise<void> {
  const stored = await storedValues(w.company);
  expect(stored.map((value) => value.id)).toEqual(w.values.kept.map((value) => value.id));
  expect(await countRecords(w.company.id, 'contact_field_values')).toBe(LEADS);
  for (const value of w.values.doomed) expect(await ownerLookup(w.company, value)).toBeUndefined();
  for (const value of w.values.kept) expect(await ownerLookup(w.company, value)).toMatchObject({ id: value.id });
  expect((await viewFields(w.company, w.views.both.id)).contact_field_ids).toEqual([w.kept.id]);
  expect(await viewFields(w.company, w.views.keptOnly.id)).toMatchObject({ contact_field_ids: [w.kept.id], updated_at: w.views.keptOnly.updated_at });
  expect(await pendingCleanups(w.company.id)).toEqual([]);
  expect(await listed(w.company)).toEqual({ ids: w.values.kept.map((value) => value.id), total: LEADS });
}

describe('deleting a contact field', () => {
  it('answers at once, hides its values, and deletes them in background steps of a page each, then leaves the views', async () => {
    const w = await world('cleanup');
    const reply = await as(w.company, 'DELETE', `/api/v1/contact_fields/${w.doomed.id}`);
    expect(reply.status).toBe(200);
    expect404(await as(w.company, 'GET', `/api/v1/contact_fields/${w.doomed.id}`));
    // Nothing of the cascade ran in the request: the values are all still stored, and the work is queued.
    expect(await storedValues(w.company)).toHaveLength(2 * LEADS);
    expect(await (backgroundWork() as TableWork).pending()).toEqual([{ kind: 'contact_field_cleanup', companyId: w.company.id, fieldId: w.doomed.id }]);

    // Meanwhile the API shows none of them: not listed (nor counted), not found by id, not writable.
    expect(await listed(w.company)).toEqual({ ids: w.values.kept.map((value) => value.id), total: LEADS });
    expect(await listed(w.company, `&contact_field_id=${w.doomed.id}`)).toEqual({ ids: [], total: 0 });
    const cursorPage = await as(w.company, 'GET', '/api/v1/contact_field_values?cursor=-1&per_page=100');
    expect(cursorPage.status, cursorPage.text).toBe(200);
    expect(cursorPage.body.contact_field_values.map((row: { contact_field_id: number }) => row.contact_field_id)).not.toContain(w.doomed.id);
    const one = w.values.doomed[0]!;
    expect404(await as(w.company, 'GET', `/api/v1/contact_field_values/${one.id}`));
    expect404(await as(w.company, 'PUT', `/api/v1/contact_field_values/${one.id}`, { value: 1 }));
    expect404(await as(w.company, 'DELETE', `/api/v1/contact_field_values/${one.id}`));
    const csv = await call(gateway, { path: '/api/v1/contact_field_values.csv?columns=id,contact_field_id', authorization: w.company.authorization });
    expect(csv.text.trim().split('\n').slice(1)).toEqual(w.values.kept.map((value) => `${value.id},${w.kept.id}`));
    const exporter = recordOf(await as(w.company, 'POST', '/api/v1/admin_table_exporters', { data_type: 'contact_field_values' }), 'admin_table_exporter');
    expect(exporter).toMatchObject({ total_records_count: LEADS, succeeded_at: expect.any(String) });

    // 24 values, 5 a page: 5 pages, each step one page and the next step queued.
    expect(await drainLocalWork()).toBe(5);
    await expectCleanedUp(w);
    // A field made again gets a new id and a value for the same lead again (the owner's slot is free).
    const again = await createThrough(gateway, w.company, '/api/v1/contact_fields', { name: 'Age', key: 'age', field_type: 'integer' });
    expect((await as(w.company, 'POST', '/api/v1/contact_field_values', { contact_field_id: again.id, lead_id: one.lead_id, value: 3 })).status).toBe(200);
  });

  it('is safe to run twice: a duplicate message, two steps at once, a step after the end', async () => {
    const w = await world('cleanup-twice');
    expect((await as(w.company, 'DELETE', `/api/v1/contact_fields/${w.doomed.id}`)).status).toBe(200);
    const ref = { companyId: w.company.id, fieldId: w.doomed.id };
    // Two steps at once from the start (the queued message and a duplicate), one page each: one may
    // lose a write conflict on the same values (the queue would retry it); the end is the same.
    const outcomes = await Promise.allSettled([advanceFieldCleanup(ref), advanceFieldCleanup(ref)]);
    expect(outcomes.some((outcome) => outcome.status === 'fulfilled')).toBe(true);
    await backgroundWork().enqueue({ kind: 'contact_field_cleanup', ...ref });
    await drainLocalWork();
    await expectCleanedUp(w);
    expect(await advanceFieldCleanup(ref)).toBe('missing');
    expect(await drainLocalWork()).toBe(0);
    await expectCleanedUp(w);
  });

  it('resumes where a step stopped: each step starts from the cursor the last one left', async () => {
    const w = await world('cleanup-resume');
    expect((await as(w.company, 'DELETE', `/api/v1/contact_fields/${w.doomed.id}`)).status).toBe(200);
    const ref = { companyId: w.company.id, fieldId: w.doomed.id };
    expect(await advanceFieldCleanup(ref)).toBe('in_progress');
    const [after] = await pendingCleanups(w.company.id);
    // The first page: the first five values (ids interleave, doomed first), three of them the field's.
    expect(after).toMatchObject({ field_id: w.doomed.id, cursor: w.values.doomed[2]!.id, removed: 3 });
    expect((await storedValues(w.company)).length).toBe(2 * LEADS - 3);
    // The next step, however it comes (here not the queued one), goes on from there, and within its budget to the end.
    expect(await advanceFieldCleanup(ref, { budgetMs: 60_000 })).toBe('completed');
    await expectCleanedUp(w);
    // The steps queued meanwhile find nothing left to do.
    expect(await drainLocalWork()).toBeGreaterThanOrEqual(1);
    await expectCleanedUp(w);
  });

  it('is queued again by the recovery sweep when queueing it failed: the delete still answers, its values stay hidden', async () => {
    const w = await world('cleanup-sweep');
    setBackgroundWork({ enqueue: async () => Promise.reject(new Error('queue unavailable')) });
    expect((await as(w.company, 'DELETE', `/api/v1/contact_fields/${w.doomed.id}`)).status).toBe(200);
    setBackgroundWork();
    expect(await listed(w.company)).toEqual({ ids: w.values.kept.map((value) => value.id), total: LEADS });
    expect(await drainLocalWork()).toBe(0);
    const ref = { companyId: w.company.id, fieldId: w.doomed.id };
    // Not stalled yet: left alone.
    expect((await sweepFieldCleanups(clock().now(), [w.company.id])).queued).toEqual([]);
    const later = new Date(clock().now().getTime() + STALLED_CLEANUP_MS + 1000);
    expect((await sweepFieldCleanups(later, [w.company.id])).queued).toEqual([ref]);
    // Noted as queued: the next sweep does not queue it a second time.
    expect((await sweepFieldCleanups(later, [w.company.id])).queued).toEqual([]);
    await drainLocalWork();
    await expectCleanedUp(w);
  });

  it("touches the deleting company's values only, even of a field with the same id", async () => {
    const mine = await world('cleanup-mine');
    const theirs = await world('cleanup-theirs');
    // Ids are per company: both companies' first field is the same id.
    expect(theirs.doomed.id).toBe(mine.doomed.id);
    expect((await as(mine.company, 'DELETE', `/api/v1/contact_fields/${mine.doomed.id}`)).status).toBe(200);
    await drainLocalWork();
    await expectCleanedUp(mine);
    const stored = await storedValues(theirs.company);
    expect(stored.map((value) => value.id)).toEqual([...theirs.values.doomed, ...theirs.values.kept].map((value) => value.id).sort((a, b) => a - b));
    expect((await listed(theirs.company)).total).toBe(2 * LEADS);
    expect((await viewFields(theirs.company, theirs.views.both.id)).contact_field_ids).toEqual([theirs.kept.id, theirs.doomed.id]);
    expect(recordOf(await as(theirs.company, 'GET', `/api/v1/contact_fields/${theirs.doomed.id}`), 'contact_field').id).toBe(theirs.doomed.id);
  });

  it('runs in the lead runner from its steps queue, each step within what is left of the invocation', async () => {
    delete process.env.CONTACT_FIELD_CLEANUP_BUDGET_MS;
    const w = await world('cleanup-runner');
    expect((await as(w.company, 'DELETE', `/api/v1/contact_fields/${w.doomed.id}`)).status).toBe(200);
    const local = backgroundWork() as TableWork;
    const [message] = await local.pending();
    const { handler } = await import('../../functions/lead-runner/handler.js');
    const invocation = (remainingMs: number) =>
      ({ invokedFunctionArn: 'arn:aws:lambda:us-east-1:111122223333:function:runner', functionName: 'runner', awsRequestId: 'r', getRemainingTimeInMillis: () => remainingMs }) as unknown as Context;
    const sqs = { Records: [{ messageId: 'm0', receiptHandle: 'h0', body: JSON.stringify(message), attributes: { ApproximateReceiveCount: '1' } }] } as unknown as SQSEvent;
    // Near the invocation's end: one page, and the next step queued.
    expect(await handler(sqs as never, invocation(20_000))).toEqual({ batchItemFailures: [] });
    expect(await storedValues(w.company)).toHaveLength(2 * LEADS - 3);
    expect(await local.pending()).toEqual([message, message]);
    // With time left: the rest within the step's budget.
    expect(await handler(sqs as never, invocation(60_000))).toEqual({ batchItemFailures: [] });
    await expectCleanedUp(w);
    // The messages still queued locally find nothing left.
    expect(await drainLocalWork()).toBe(2);
    await expectCleanedUp(w);
  });

  it('refuses a value whose field is deleted between its create reading the field and writing the value', async () => {
    const company = await createTestCompany('cleanup-race');
    const field = await createThrough(gateway, company, '/api/v1/contact_fields', { name: 'Age', key: 'age', field_type: 'integer' });
    const lead = await storeLead(company.id, clock().now(), { caller_id: `+1415558${String(1000 + ++callers)}` });
    // The field's DELETE (and its cleanup) commits while the create is between its read and its write.
    let raced = false;
    const name = 'raceFieldDelete';
    db.middlewareStack.add(
      (next, context) => async (args) => {
        const items = (args.input as { TransactItems?: Array<{ Put?: { Item?: { pk?: string } } }> }).TransactItems;
        if (!raced && context.commandName === 'TransactWriteItemsCommand' && items?.some((item) => String(item.Put?.Item?.pk).includes('#contact_field_values'))) {
          raced = true;
          await db.send(new DeleteCommand({ TableName: tableName, Key: keys.record(company.id, 'contact_fields', field.id) }));
        }
        return next(args);
      },
      { step: 'initialize', name },
    );
    try {
      const reply = await as(company, 'POST', '/api/v1/contact_field_values', { contact_field_id: field.id, lead_id: lead.id, value: 41 });
      expect(raced).toBe(true);
      expect(reply.status, reply.text).toBe(422);
      expect(reply.body.errors).toEqual({ contact_field_id: [`does not exist: ${field.id}`] });
    } finally {
      db.middlewareStack.remove(name);
    }
    expect(await storedValues(company)).toEqual([]);
    expect(await countRecords(company.id, 'contact_field_values')).toBe(0);
  });
});

