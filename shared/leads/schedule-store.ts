import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from '../db/client.js';
import { keys } from '../db/keys.js';
import { queryPages } from '../db/query.js';
import { withoutKeys } from '../db/records.js';
import type { ScheduleAction } from './schedule-steps.js';

/**
 * Reads of the schedule engine that are not one record by id (docs/leads.md):
 * - a schedule's actions: one Query of gsi1 on `scheduleActionsOf` (each action carries its
 *   schedule's key, written with the action), so a step reads its own schedule's actions, not the
 *   company's; the index is eventually consistent, so an action saved a moment ago may be missed
 *   by a step that runs at once;
 * - how many leads wait at each action: one paged Query of the company's waiting leads (gsi1
 *   `leadsWaiting`), at most QUEUE_COUNT_CAP items, for schedule_actions' queued_leads_count.
 */

/** The gsi1 attributes an action is stored with, so its schedule's Query finds it. */
export function scheduleActionIndex(companyId: number, scheduleId: number | null, ownerRelation: string): { gsi1pk: string; gsi1sk: string } {
  return { gsi1pk: keys.scheduleActionsOf(companyId, scheduleId), gsi1sk: ownerRelation };
}

/** Every action of a schedule, all relations, unordered (the engine orders them per phase). */
export async function actionsOfSchedule(companyId: number, scheduleId: number): Promise<ScheduleAction[]> {
  const out: ScheduleAction[] = [];
  for await (const items of queryPages({ IndexName: 'gsi1', KeyConditionExpression: 'gsi1pk = :pk', ExpressionAttributeValues: { ':pk': keys.scheduleActionsOf(companyId, scheduleId) } })) {
    for (const item of items) out.push(withoutKeys(item) as unknown as ScheduleAction);
  }
  return out;
}

/** Waiting-lead index items read at most to count the queues (beyond it the counts are lower bounds). */
export const QUEUE_COUNT_CAP = 5000;

/**
 * Pages of the company's waiting leads (gsi1 `leadsWaiting`), reading at most `cap` index items:
 * each page's items and how many were read (a filter drops items after they are read).
 */
export async function* waitingLeadPages(
  companyId: number,
  options: { cap: number; pageSize: number; projection?: string; scheduleId?: number },
): AsyncGenerator<{ items: Record<string, unknown>[]; scanned: number; more: boolean }> {
  let read = 0;
  let startKey: Record<string, unknown> | undefined;
  do {
    const page = await db.send(
      new QueryCommand({
        TableName: tableName,
        IndexName: 'gsi1',
        KeyConditionExpression: 'gsi1pk = :pk',
        ...(options.scheduleId !== undefined ? { FilterExpression: 'schedule_id = :schedule' } : {}),
        ExpressionAttributeValues: { ':pk': keys.leadsWaiting(companyId), ...(options.scheduleId !== undefined ? { ':schedule': options.scheduleId } : {}) },
        ...(options.projection ? { ProjectionExpression: options.projection } : {}),
        Limit: Math.min(options.pageSize, options.cap - read),
        ExclusiveStartKey: startKey,
      }),
    );
    read += page.ScannedCount ?? 0;
    startKey = page.LastEvaluatedKey;
    yield { items: page.Items ?? [], scanned: page.ScannedCount ?? 0, more: Boolean(startKey) };
  } while (startKey && read < options.cap);
}

/** How many active leads wait with each action as their next one. */
export async function queuedLeadsByAction(companyId: number, cap = QUEUE_COUNT_CAP): Promise<Map<number, number>> {
  const counts = new Map<number, number>();
  for await (const { items } of waitingLeadPages(companyId, { cap, pageSize: 1000, projection: 'current_action_id' })) {
    for (const item of items) {
      const id = item.current_action_id;
      if (typeof id === 'number') counts.set(id, (counts.get(id) ?? 0) + 1);
    }
  }
  return counts;
}
