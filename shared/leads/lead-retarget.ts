import { randomUUID } from 'node:crypto';
import { TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { db } from '../db/client.js';
import { dayRecordPut } from '../db/day-records.js';
import { timeSortableId } from '../db/ids.js';
import { getRecord, withoutKeys, type StoredRecord } from '../db/records.js';
import { publishStaged, stageMessages } from '../events/outbox.js';
import { logger } from '../logger.js';
import type { LeadRecord } from './lead-record.js';
import { schedulePending } from './lead-steps.js';
import { contactOf, leadCreateItems, leadsOfContact, transitionLead } from './lead-store.js';
import { moveToSchedule, newScheduleLead, type ScheduleRow } from './schedule-leads.js';
import { filterHolds, leadTokens, type ScheduleAction } from './schedule-steps.js';
import { waitingLeadPages } from './schedule-store.js';

/**
 * Lead retargets (shared/leads/lead-retargets-resource.ts): the active, waiting leads of the source
 * schedule (the company's waiting-leads index, gsi1, read at most SCAN_CAP items) that match the
 * filter are moved into the target schedule's first action, or copied as new leads there. Each
 * lead is one transaction with its lead_retarget_logs entry, so the log says exactly what happened.
 */
export const LEAD_RETARGET_LOGS = 'lead_retarget_logs';
export const LEAD_RETARGET_LOG_COLUMNS = [
  'id',
  'uuid',
  'created_at',
  'company_id',
  'lead_retarget_id',
  'lead_id',
  'new_lead_id',
  'source_schedule_id',
  'target_schedule_id',
  'retarget_type',
  'outcome',
  'reason',
] as const;

/** Index items one retarget reads at most (beyond it, has_more tells to run another). */
export const SCAN_CAP = 1000;

export interface RetargetResult {
  scanned_count: number;
  retargeted_count: number;
  skipped_count: number;
  has_more: boolean;
  succeeded_at: string;
}

/** The waiting leads of a schedule matching the filter: up to `limit` of them, and whether more may exist. */
async function candidates(companyId: number, scheduleId: number, filter: ScheduleAction, limit: number): Promise<{ leads: LeadRecord[]; scanned: number; more: boolean }> {
  const leads: LeadRecord[] = [];
  let scanned = 0;
  let more = false;
  for await (const page of waitingLeadPages(companyId, { cap: SCAN_CAP, pageSize: 200, scheduleId })) {
    scanned += page.scanned;
    more = page.more;
    for (const item of page.items) {
      const lead = withoutKeys(item) as LeadRecord;
      if (!filterHolds(filter, leadTokens(lead))) continue;
      if (leads.length === limit) return { leads, scanned, more: true };
      leads.push(lead);
    }
  }
  return { leads, scanned, more };
}

function logEntry(companyId: number, retarget: Record<string, unknown>, lead: LeadRecord, outcome: 'moved' | 'copied' | 'skipped', reason: string | null, newLeadId: number | null, now: Date) {
  const entry = {
    id: timeSortableId(now.getTime()),
    uuid: randomUUID(),
    created_at: now.toISOString(),
    updated_at: now.toISOString(),
    company_id: companyId,
    lead_retarget_id: retarget.id,
    lead_id: lead.id,
    new_lead_id: newLeadId,
    source_schedule_id: retarget.source_schedule_id,
    target_schedule_id: retarget.target_schedule_id,
    retarget_type: retarget.retarget_type,
    outcome,
    reason,
  } satisfies StoredRecord;
  return { Put: dayRecordPut(companyId, LEAD_RETARGET_LOGS, entry) };
}

async function move(companyId: number, retarget: Record<string, unknown>, lead: LeadRecord, target: ScheduleRow, now: Date): Promise<boolean> {
  const source = Number(retarget.source_schedule_id);
  const { result } = await transitionLead(
    companyId,
    lead.id,
    (current) => {
      if (current.schedule_id !== source || current.status !== 'active') return { result: undefined, save: false };
      const entry = moveToSchedule(companyId, current, target, now);
      return { result: entry, save: true, events: ['lead_changed'], alongside: [logEntry(companyId, retarget, current, 'moved', null, null, now)] };
    },
    now,
  );
  if (result) await schedulePending(result, now);
  return Boolean(result);
}

async function copy(companyId: number, retarget: Record<string, unknown>, lead: LeadRecord, target: ScheduleRow, now: Date): Promise<string | null> {
  const contact = contactOf(lead);
  if (contact && (await leadsOfContact(companyId, contact, { kind: 'schedule', id: target.id }, 20)).some((other) => other.status === 'active')) {
    return 'the contact already has an active lead in the target schedule';
  }
  const made = newScheduleLead(companyId, lead, target, now);
  const { writes, staged } = stageMessages(companyId, made.messages, now);
  await db.send(new TransactWriteCommand({ TransactItems: [...leadCreateItems(companyId, made.lead), logEntry(companyId, retarget, lead, 'copied', null, made.lead.id, now), ...writes] }));
  await publishStaged(staged);
  await schedulePending(made.entry, now);
  return null;
}

async function skip(companyId: number, retarget: Record<string, unknown>, lead: LeadRecord, reason: string, now: Date): Promise<void> {
  await db.send(new TransactWriteCommand({ TransactItems: [logEntry(companyId, retarget, lead, 'skipped', reason, null, now)] }));
}

/** Runs a created retarget; what it did, to store on the record. */
export async function runRetarget(companyId: number, retarget: Record<string, unknown>, now: Date): Promise<RetargetResult> {
  const target = (await getRecord(companyId, 'schedules', Number(retarget.target_schedule_id))) as ScheduleRow | undefined;
  const filter = { record_token_filter_list: retarget.record_token_filter_list } as ScheduleAction;
  const found = target ? await candidates(companyId, Number(retarget.source_schedule_id), filter, Number(retarget.lead_limit ?? 100)) : { leads: [], scanned: 0, more: false };
  let retargeted = 0;
  let skipped = 0;
  for (const lead of found.leads) {
    try {
      if (retarget.retarget_type === 'copy') {
        const refused = await copy(companyId, retarget, lead, target!, now);
        if (refused) {
          await skip(companyId, retarget, lead, refused, now);
          skipped += 1;
        } else retargeted += 1;
      } else if (await move(companyId, retarget, lead, target!, now)) {
        retargeted += 1;
      } else {
        await skip(companyId, retarget, lead, 'the lead left the source schedule or ended meanwhile', now);
        skipped += 1;
      }
    } catch (error) {
      logger.error('lead retarget: lead not retargeted', { error, companyId, leadId: lead.id, retargetId: retarget.id });
      skipped += 1;
    }
  }
  return { scanned_count: found.scanned, retargeted_count: retargeted, skipped_count: skipped, has_more: found.more, succeeded_at: now.toISOString() };
}
