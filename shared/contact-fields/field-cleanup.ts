import { DeleteCommand } from '@aws-sdk/lib-dynamodb';
import { clock } from '../adapters/clock.js';
import { db, tableName } from '../db/client.js';
import { keys } from '../db/keys.js';
import { deleteRecord, deleteRecordsTogether, queryAllRecords, queryRecordPage, updateRecord, type StoredRecord } from '../db/records.js';
import { budgetFromEnv } from '../db/work-lease.js';
import { CONTACT_FIELD_VALUES, CONTACT_FIELD_VIEWS } from './field-store.js';
import { inGroups, pageOfCleanup, viewsWithout, type FieldCleanupRef } from './field-cleanup-plan.js';
import { continueFieldCleanup } from './field-cleanup-queue.js';
import { markActive, pendingCleanup } from './field-cleanup-store.js';
import { FIELD_OWNER } from './value-owner.js';

/**
 * A deleted contact field's cleanup, as background work (AWS: the lead runner takes it from its
 * steps queue; locally: the table's work queue). The company's values live in one partition with
 * no index by field, so a step reads it in pages from the cursor on the cleanup item, deletes the
 * field's values of each page (with their lookups and the count, a few dozen per transaction),
 * and notes the cursor; when its time budget is spent it queues the next step, which goes on from
 * the cursor. After the last page it takes the field out of the views and deletes the cleanup
 * item. Safe to run twice, at once or again: deletes of values already gone write nothing, the
 * cursor never moves back, and a step whose cleanup item is gone stops.
 */

/** A step's budget (within the runner's 60 s), unless CONTACT_FIELD_CLEANUP_BUDGET_MS says otherwise (tests set 0: one page per step). */
export const CLEANUP_BUDGET_MS = 30_000;
/** Values read per page, unless CONTACT_FIELD_CLEANUP_PAGE_SIZE says otherwise (tests set a few). */
export const CLEANUP_PAGE_SIZE = 500;
/** Values deleted per transaction: two items each (record, lookup) plus the count, within DynamoDB's 100. */
const VALUES_PER_TRANSACTION = 40;

export const cleanupBudgetMs = (): number => budgetFromEnv('CONTACT_FIELD_CLEANUP_BUDGET_MS', CLEANUP_BUDGET_MS);
const cleanupPageSize = (): number => Math.max(1, Math.floor(budgetFromEnv('CONTACT_FIELD_CLEANUP_PAGE_SIZE', CLEANUP_PAGE_SIZE)));

/** 'behind': another step of the same cleanup (a duplicate message) is further on, or has finished: it carries on alone. */
export type CleanupOutcome = 'missing' | 'behind' | 'in_progress' | 'completed';

/** Deletes values with their lookups: together, or one at a time when a duplicate step deleted one first. Returns how many this call deleted. */
async function deleteValues(companyId: number, values: readonly StoredRecord[]): Promise<number> {
  let deleted = 0;
  for (const group of inGroups(values, VALUES_PER_TRANSACTION)) {
    // The engine's company-scoped unique lookup of the pair (lookupsOf, not loaded here: it brings the CRUD engine).
    const lookups = (value: StoredRecord) => (value[FIELD_OWNER] ? [keys.lookup(companyId, CONTACT_FIELD_VALUES, FIELD_OWNER, String(value[FIELD_OWNER]))] : []);
    if (await deleteRecordsTogether(companyId, CONTACT_FIELD_VALUES, group.map((value) => ({ id: value.id, lookups: lookups(value) })))) {
      deleted += group.length;
      continue;
    }
    for (const value of group) if (await deleteRecord(companyId, CONTACT_FIELD_VALUES, value.id, lookups(value))) deleted++;
  }
  return deleted;
}

/** The last step: the field leaves the views that list it, then the cleanup item goes (so a crash before retries this). */
async function finish(ref: FieldCleanupRef, now: Date): Promise<void> {
  for (const view of viewsWithout(ref.fieldId, await queryAllRecords(ref.companyId, CONTACT_FIELD_VIEWS))) {
    await updateRecord(ref.companyId, CONTACT_FIELD_VIEWS, view.id, { contact_field_ids: view.contact_field_ids, updated_at: now.toISOString() });
  }
  await db.send(new DeleteCommand({ TableName: tableName, Key: keys.contactFieldCleanup(ref.companyId, ref.fieldId) }));
}

/**
 * One step of a field's cleanup: pages until the budget is spent (at least one page), then queues
 * the next step, or finishes. 'missing': no cleanup is pending (done already, or never started).
 */
export async function advanceFieldCleanup(ref: FieldCleanupRef, options: { now?: Date; budgetMs?: number; pageSize?: number } = {}): Promise<CleanupOutcome> {
  const startedAt = Date.now();
  const now = options.now ?? clock().now();
  const budgetMs = options.budgetMs ?? cleanupBudgetMs();
  const pageSize = options.pageSize ?? cleanupPageSize();
  const pending = await pendingCleanup(ref);
  if (!pending) return 'missing';
  let cursor = Number(pending.cursor ?? 0);
  do {
    const page = await queryRecordPage({
      companyId: ref.companyId,
      resource: CONTACT_FIELD_VALUES,
      direction: 'asc',
      limit: pageSize,
      afterId: cursor || undefined,
      // What deciding and deleting need; DynamoDB still bills the whole items read.
      attributes: ['contact_field_id', FIELD_OWNER],
    });
    const step = pageOfCleanup(ref.fieldId, page.records, cursor);
    const removed = await deleteValues(ref.companyId, step.doomed);
    if (page.exhausted) {
      await finish(ref, now);
      return 'completed';
    }
    if (!(await markActive(ref, now, { cursor: step.cursor, removed }))) return 'behind';
    cursor = step.cursor;
  } while (Date.now() - startedAt < budgetMs);
  await continueFieldCleanup(ref);
  return 'in_progress';
}
