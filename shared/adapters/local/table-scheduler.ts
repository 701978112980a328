import { DeleteCommand, PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from '../../db/client.js';
import { keys } from '../../db/keys.js';
import type { LeadStepEntry, SchedulerPort } from '../../ports/scheduler.js';

export interface DueEntry {
  entry: LeadStepEntry;
  dueAt: Date;
  key: { pk: string; sk: string };
}

/**
 * The local lead scheduler: entries are items of the table (keys.localScheduleEntry), so a
 * restarted `npm start` still runs what was due while it was down. The local runner
 * (shared/leads/local-runner.ts) reads the due ones on the service's clock, runs them and
 * deletes them after; a crash in between runs one again, which the lead's step version makes
 * harmless (as a duplicated Scheduler fire in AWS). `cancel` leaves the entry: it fires and finds
 * its version stale, like an AWS schedule whose deletion failed.
 */
export class TableScheduler implements SchedulerPort {
  constructor(readonly name: string) {}

  async schedule(entry: LeadStepEntry, at: Date): Promise<void> {
    await db.send(
      new PutCommand({
        TableName: tableName,
        Item: { ...keys.localScheduleEntry(this.name, at.getTime(), entry.companyId, entry.leadId, entry.version), company_id: entry.companyId, lead_id: entry.leadId, version: entry.version, due_at: at.toISOString() },
      }),
    );
  }

  async cancel(): Promise<void> {}

  /** Entries due at or before `now`, earliest first. */
  async due(now: Date, limit = 100): Promise<DueEntry[]> {
    const result = await db.send(
      new QueryCommand({
        TableName: tableName,
        KeyConditionExpression: 'pk = :pk AND sk <= :now',
        ExpressionAttributeValues: { ':pk': keys.localSchedule(this.name), ':now': `${String(now.getTime()).padStart(15, '0')}#\uffff` },
        Limit: limit,
        ConsistentRead: true,
      }),
    );
    return (result.Items ?? []).map((item) => ({
      entry: { companyId: Number(item.company_id), leadId: Number(item.lead_id), version: Number(item.version) },
      dueAt: new Date(String(item.due_at)),
      key: { pk: String(item.pk), sk: String(item.sk) },
    }));
  }

  /** Every pending entry (tests, and the README's look at a waiting lead). */
  async pending(limit = 1000): Promise<DueEntry[]> {
    return this.due(new Date(8.64e15), limit);
  }

  async remove(due: DueEntry): Promise<void> {
    await db.send(new DeleteCommand({ TableName: tableName, Key: due.key }));
  }
}
