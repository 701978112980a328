import { putDayRecord } from '../db/day-records.js';
import { timeSortableId } from '../db/ids.js';
import { randomUUID } from 'node:crypto';

/**
 * Webhook logs: one entry per attempt of every subscription delivery and outgoing webhook send,
 * a day record (`webhook_logs`, time-sortable id) that expires WEBHOOK_LOG_RETENTION_DAYS after
 * the attempt. `GET /api/v1/webhook_logs` lists them newest first by cursor.
 */
export const WEBHOOK_LOGS = 'webhook_logs';

export const WEBHOOK_LOG_RETENTION_DAYS = 30;

/** The readable columns of a webhook log entry, in the order they are shown. */
export const WEBHOOK_LOG_COLUMNS = [
  'id',
  'uuid',
  'created_at',
  'company_id',
  'kind',
  'event',
  'event_id',
  'subscription_id',
  'outgoing_webhook_id',
  'outgoing_webhook_url_id',
  'webhook_manual_fire_id',
  'call_id',
  'lead_id',
  'http_method',
  'target_url',
  'attempt',
  'max_attempts',
  'success',
  'status_code',
  'duration_ms',
  'response_excerpt',
  'error',
  'next_attempt_at',
] as const;

export type WebhookLogKind = 'subscription' | 'outgoing_webhook';

export interface WebhookAttempt {
  kind: WebhookLogKind;
  event: string | null;
  event_id: string | null;
  subscription_id: number | null;
  outgoing_webhook_id: number | null;
  outgoing_webhook_url_id: number | null;
  webhook_manual_fire_id: number | null;
  call_id: number | null;
  lead_id: number | null;
  http_method: string;
  target_url: string;
  /** 1 for the first attempt. */
  attempt: number;
  max_attempts: number;
  success: boolean;
  status_code: number | null;
  duration_ms: number;
  /** At most the first few hundred characters of the response body. */
  response_excerpt: string | null;
  error: string | null;
  /** When the next attempt is due (ISO), null after a success or the last attempt. */
  next_attempt_at: string | null;
}

/** Stores one attempt; returns the log entry's id. */
export async function recordWebhookAttempt(companyId: number, attempt: WebhookAttempt, now: Date): Promise<number> {
  const id = timeSortableId(now.getTime());
  await putDayRecord(companyId, WEBHOOK_LOGS, {
    ...attempt,
    id,
    uuid: randomUUID(),
    company_id: companyId,
    created_at: now.toISOString(),
    updated_at: now.toISOString(),
    expires_at: Math.floor(now.getTime() / 1000) + WEBHOOK_LOG_RETENTION_DAYS * 24 * 60 * 60,
  });
  return id;
}
