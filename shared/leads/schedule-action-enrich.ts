import { getRecords } from '../db/records.js';
import type { HookContext } from '../resources/define.js';
import { queuedLeadsByAction } from './schedule-store.js';

/**
 * The schedule action's columns read from other records (its view's enricher, apart from the
 * write hooks): the webhook action's outgoing_webhook, add_to_schedule_name and the queue of
 * waiting leads.
 */

/** The reference's outgoing_webhook object of a webhook action. */
const WEBHOOK_FIELDS = [
  'id',
  'created_at',
  'updated_at',
  'user_updated_at',
  'name',
  'trigger_type',
  'trigger_duration',
  'company_id',
  'offer_id',
  'schedule_action_id',
  'type',
  'sortable_order',
  'token_value_ids',
  'outgoing_url_ids',
  'token_value_map_ids',
] as const;

function ids(records: readonly Record<string, unknown>[], field: string): number[] {
  return records.map((record) => record[field]).filter((id): id is number => typeof id === 'number');
}

export async function enrich(context: HookContext, records: readonly Record<string, unknown>[]): Promise<Map<number, Record<string, unknown>>> {
  const [webhooks, schedules, queued] = await Promise.all([
    getRecords(context.companyId, 'outgoing_webhooks', ids(records, 'outgoing_webhook_id')),
    getRecords(context.companyId, 'schedules', ids(records, 'add_to_schedule_id')),
    queuedLeadsByAction(context.companyId),
  ]);
  const webhookById = new Map(webhooks.map((webhook) => [webhook.id, webhook]));
  const scheduleById = new Map(schedules.map((schedule) => [schedule.id, schedule]));
  return new Map(
    records.map((record) => {
      const webhook = webhookById.get(record.outgoing_webhook_id as number);
      const count = queued.get(record.id as number) ?? 0;
      return [
        record.id as number,
        {
          outgoing_webhook: webhook ? Object.fromEntries(WEBHOOK_FIELDS.map((field) => [field, field === 'type' ? 'OutgoingWebhook' : (webhook[field] ?? null)])) : null,
          add_to_schedule_name: scheduleById.get(record.add_to_schedule_id as number)?.name ?? null,
          has_queued_leads: count > 0,
          queued_leads_count: count,
        },
      ];
    }),
  );
}
