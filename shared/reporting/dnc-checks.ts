import { randomUUID } from 'node:crypto';
import type { TransactItem } from '../db/client.js';
import { dayRecordPut, putDayRecord } from '../db/day-records.js';
import { timeSortableId } from '../db/ids.js';
import type { StoredRecord } from '../db/records.js';
import { logger } from '../logger.js';

/**
 * Do-not-call checks: each time the blacklist is consulted before an outbound dial to a lead
 * (`dial`) or when a lead comes in (`lead`), one entry goes to the `dnc_check_logs` day log
 * (`GET /api/v1/dnc_check_logs`). A dial's entry is one Put, made after the check answered; a
 * failed Put is logged and swallowed, never failing the dial. A lead's entry rides in the lead's
 * own transaction (dncCheckPut), so the intake stays one write.
 */
export const DNC_CHECK_LOGS = 'dnc_check_logs';
export const DNC_CHECK_SOURCES = ['dial', 'lead'] as const;
export type DncCheckSource = (typeof DNC_CHECK_SOURCES)[number];

export const DNC_CHECK_LOG_COLUMNS = ['id', 'uuid', 'caller_number', 'blocked', 'result', 'source', 'lead_id', 'created_at'] as const;

export interface DncCheck {
  caller_number: string;
  blocked: boolean;
  source: DncCheckSource;
  lead_id: number | null;
}

/** The entry of a check, as stored. Pure. */
export function dncCheckEntry(check: DncCheck, now: Date, id = timeSortableId(now.getTime())): StoredRecord {
  return {
    id,
    uuid: randomUUID(),
    created_at: now.toISOString(),
    updated_at: now.toISOString(),
    caller_number: check.caller_number,
    blocked: check.blocked,
    // A text twin of `blocked`, so the list filters by `result=blocked|allowed`.
    result: check.blocked ? 'blocked' : 'allowed',
    source: check.source,
    lead_id: check.lead_id,
  };
}

export async function recordDncCheck(companyId: number, check: DncCheck, now: Date): Promise<void> {
  try {
    await putDayRecord(companyId, DNC_CHECK_LOGS, dncCheckEntry(check, now));
  } catch (error) {
    logger.warn('dnc check log not written', { companyId, source: check.source, error: String(error) });
  }
}

/** A check's entry as a member of another write's transaction. */
export function dncCheckPut(companyId: number, check: DncCheck, now: Date): TransactItem {
  return { Put: dayRecordPut(companyId, DNC_CHECK_LOGS, dncCheckEntry(check, now)) };
}
