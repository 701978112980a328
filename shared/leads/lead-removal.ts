import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from '../db/client.js';
import { dayRecordKey } from '../db/day-records.js';
import { keys } from '../db/keys.js';
import type { LeadRecord } from './lead-record.js';
import { leadRollupWrites } from './lead-rollup-store.js';
import { leadFigures } from './lead-rollups.js';
import { cancelPending } from './lead-steps.js';
import { getLead, LEADS } from './lead-store.js';

/**
 * Deleting a lead (`DELETE /api/v1/leads/:id/id`, `delete_existing`): the lead, its uuid lookup
 * and its counts in the report rollups go in one transaction, if the lead is still as read; then
 * its pending step is cancelled (a fire that still comes finds no lead and does nothing). No
 * event: a deleted lead has no record to send.
 */
export async function deleteLead(companyId: number, lead: LeadRecord): Promise<boolean> {
  try {
    await db.send(
      new TransactWriteCommand({
        TransactItems: [
          {
            Delete: {
              TableName: tableName,
              Key: dayRecordKey(companyId, LEADS, lead.id),
              ConditionExpression: '#version = :version',
              ExpressionAttributeNames: { '#version': 'version' },
              ExpressionAttributeValues: { ':version': lead.version },
            },
          },
          { Delete: { TableName: tableName, Key: keys.globalLookup(LEADS, 'uuid', lead.uuid) } },
          ...leadRollupWrites(companyId, leadFigures(lead), undefined),
        ],
      }),
    );
  } catch (error) {
    const reasons = error instanceof TransactionCanceledException ? (error.CancellationReasons ?? []) : [];
    if (reasons[0]?.Code === 'ConditionalCheckFailed') return false;
    throw error;
  }
  if (lead.next_action_at !== null) await cancelPending({ companyId, leadId: lead.id, version: Number(lead.step_version ?? 0) });
  return true;
}

/** Deletes a lead by id as it stands now (read, then delete if unchanged; retried on a race); undefined when there is none. */
export async function deleteLeadById(companyId: number, leadId: number): Promise<LeadRecord | undefined> {
  for (let attempt = 0; attempt < 5; attempt++) {
    const lead = await getLead(companyId, leadId);
    if (!lead) return undefined;
    if (await deleteLead(companyId, lead)) return lead;
  }
  throw new Error(`Lead ${leadId} kept changing while it was deleted`);
}
