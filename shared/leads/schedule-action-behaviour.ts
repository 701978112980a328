import { objectStorageMissingSetting } from '../adapters/object-storage-settings.js';
import { getRecords } from '../db/records.js';
import { ValidationError } from '../http/errors.js';
import type { HookContext } from '../resources/define.js';
import { UNSUPPORTED_ACTION_TYPES } from '../resources/schedule-actions.js';
import { queuedLeadsByAction, scheduleActionIndex } from './schedule-store.js';

/**
 * Hooks of schedule actions: refusing the kinds this deployment cannot run, keeping each action
 * in its schedule's index (schedule-store.ts), and the columns read from other records: the
 * webhook action's outgoing_webhook, add_to_schedule_name and the queue of waiting leads.
 */

/** Why an action of this kind cannot be created here, or undefined. */
export function refusal(actionType: unknown, env: NodeJS.ProcessEnv = process.env): string | undefined {
  if (typeof actionType !== 'string') return undefined;
  if (UNSUPPORTED_ACTION_TYPES.has(actionType)) return `is not available: this deployment has no ${actionType} integration`;
  if (actionType === 'object_storage_upload') {
    const missing = objectStorageMissingSetting(env);
    if (missing) return `is not available: this deployment has no object storage (set ${missing})`;
  }
  return undefined;
}

export async function prepareCreate(context: HookContext, fields: Record<string, unknown>): Promise<Record<string, unknown>> {
  const refused = refusal(fields.action_type);
  if (refused) throw new ValidationError({ action_type: [refused] });
  return { ...fields, ...scheduleActionIndex(context.companyId, (fields.schedule_id as number | null) ?? null, String(fields.owner_relation)) };
}

export async function prepareUpdate(context: HookContext, before: Record<string, unknown>, fields: Record<string, unknown>): Promise<Record<string, unknown>> {
  if (!('schedule_id' in fields)) return {};
  return scheduleActionIndex(context.companyId, (fields.schedule_id as number | null) ?? null, String(before.owner_relation));
}

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
