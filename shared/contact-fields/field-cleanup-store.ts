import { GetCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName, type TransactItem } from '../db/client.js';
import { keys } from '../db/keys.js';
import type { HiddenRecords } from '../resources/define.js';
import type { FieldCleanupRef } from './field-cleanup-plan.js';

/**
 * The pending cleanups of deleted contact fields (docs/resources.md, "Contact fields"). A field's
 * DELETE writes a cleanup item in its own transaction (keys.contactFieldCleanup) and then queues
 * the background work (shared/contact-fields/field-cleanup.ts), which notes its progress on the
 * item (`cursor`, `active_at`) and deletes it when done. So the work exists exactly when the
 * delete does: a queueing that failed, or a chain of steps that stopped (a crash, every retry
 * failed), leaves an item whose `active_at` grows old, and the recovery sweep queues it again
 * (field-cleanup-queue.ts). Until then the field's values are hidden from the API
 * (hiddenFieldValues). Reads and notes only: the engine and the admin exports load it.
 */
export interface PendingCleanup {
  field_id: number;
  /** The last value id the cleanup has read past (0: none yet). */
  cursor: number;
  /** Values it has deleted so far. */
  removed: number;
  deleted_at: string;
  /** When a step last made progress, or the work was last queued. */
  active_at: string;
}

/** The cleanup item, written in the field's delete transaction. */
export function cleanupItemWrite(ref: FieldCleanupRef, now: Date): TransactItem {
  const at = now.toISOString();
  const item = { ...keys.contactFieldCleanup(ref.companyId, ref.fieldId), company_id: ref.companyId, field_id: ref.fieldId, cursor: 0, removed: 0, deleted_at: at, active_at: at };
  return { Put: { TableName: tableName, Item: item } };
}

export async function pendingCleanup(ref: FieldCleanupRef): Promise<PendingCleanup | undefined> {
  const result = await db.send(new GetCommand({ TableName: tableName, Key: keys.contactFieldCleanup(ref.companyId, ref.fieldId), ConsistentRead: true }));
  return result.Item as PendingCleanup | undefined;
}

/** The company's pending cleanups, oldest field first (normally none: one empty Query). */
export async function pendingCleanups(companyId: number, limit?: number): Promise<PendingCleanup[]> {
  const result = await db.send(
    new QueryCommand({ TableName: tableName, KeyConditionExpression: 'pk = :pk', ExpressionAttributeValues: { ':pk': keys.contactFieldCleanups(companyId) }, Limit: limit }),
  );
  return (result.Items ?? []) as PendingCleanup[];
}

/** The values of the company's deleted fields, which the API shows no longer; undefined when no cleanup is pending. */
export async function hiddenFieldValues(companyId: number): Promise<HiddenRecords | undefined> {
  const pending = await pendingCleanups(companyId);
  if (!pending.length) return undefined;
  const deleted = new Set(pending.map((cleanup) => cleanup.field_id));
  return { hides: (value) => deleted.has(value.contact_field_id as number), attributes: ['contact_field_id'] };
}

/** Notes that the cleanup is alive (progress or queued) now; false when it is done (no item). */
export async function markActive(ref: FieldCleanupRef, now: Date, progress?: { cursor: number; removed: number }): Promise<boolean> {
  try {
    await db.send(
      new UpdateCommand({
        TableName: tableName,
        Key: keys.contactFieldCleanup(ref.companyId, ref.fieldId),
        UpdateExpression: progress ? 'SET active_at = :now, #cursor = :cursor ADD removed :removed' : 'SET active_at = :now',
        // A duplicate step behind this one never moves the cursor back.
        ConditionExpression: progress ? 'attribute_exists(pk) AND #cursor < :cursor' : 'attribute_exists(pk)',
        ...(progress ? { ExpressionAttributeNames: { '#cursor': 'cursor' } } : {}),
        ExpressionAttributeValues: { ':now': now.toISOString(), ...(progress ? { ':cursor': progress.cursor, ':removed': progress.removed } : {}) },
      }),
    );
    return true;
  } catch (error) {
    if ((error as { name?: string }).name === 'ConditionalCheckFailedException') return false;
    throw error;
  }
}
