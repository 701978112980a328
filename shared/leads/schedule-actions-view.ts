import { inferredWaitType } from './wait-time.js';
import { defineView } from '../resources/define.js';
import * as routing from '../resources/routing/schedules.js';

/** How the resources of schedule-actions-resource.ts are shown (their views); their write side stays there. Imports no schema. */

const CATEGORY: Record<string, string> = {
  dial: 'outbound',
  wait: 'timing',
  schedule_callback: 'timing',
  webhook: 'integration',
  crm_two: 'integration',
  marketing_automation: 'integration',
  ftp_upload: 'integration',
  object_storage_upload: 'integration',
  data_append: 'integration',
};

export const scheduleActionsView = defineView({
  name: routing.scheduleActions.name,
  type: 'ScheduleAction',
  columns: [
    'company_id',
    'name',
    'schedule_id',
    'owner_relation',
    'sortable_order',
    'action_type',
    'action_category',
    'record_token_filter_list',
    'token_value_map_group_ids',
    'sms_body',
    'email_title',
    'email_body',
    'email_type',
    'email_from',
    'email_domain',
    'outgoing_webhook_id',
    'outgoing_webhook',
    'action_wait_type',
    'wait_until_day_of_week',
    'wait_until_hour',
    'wait_until_minute',
    'wait_until_time_zone',
    'wait_seconds',
    'wait_minutes',
    'wait_hours',
    'wait_days',
    'choice_action_type',
    'sub_action',
    'add_to_schedule_id',
    'add_to_schedule_name',
    'mailing_list_id',
    'campaign_id',
    'has_queued_leads',
    'queued_leads_count',
    'token_value_ids',
    'calls_on_hold_limit',
    'when_buyer_would_convert',
    'when_buyer_available',
    'available_cc_percentage',
    'during_daylight_hours',
    'lead_alteration_ids',
    'record_token_additional_list',
    'object_storage_key_prefix',
    'integration_ids',
  ],
  foreignKeys: {
    schedule_id: { resource: 'schedules' },
    add_to_schedule_id: { resource: 'schedules' },
    outgoing_webhook_id: { resource: 'outgoing_webhooks' },
  },
  // The enricher (schedule-action-enrich.ts) fills in the webhook, the schedule name and the queue.
  derive: (record) => ({
    // A wait or callback created without its type shows the one it was inferred as (wait-time.ts), as it runs.
    action_wait_type: record.action_wait_type || (record.action_type === 'wait' || record.action_type === 'schedule_callback' ? (inferredWaitType(record) ?? null) : null),
    action_category: typeof record.action_type === 'string' ? (CATEGORY[record.action_type] ?? 'lead') : null,
    outgoing_webhook: null,
    add_to_schedule_name: null,
    has_queued_leads: false,
    queued_leads_count: 0,
    // Actions stored before integrations could be linked show an empty list.
    integration_ids: record.integration_ids ?? [],
  }),
  enrich: () => import('./schedule-action-enrich.js').then((module) => module.enrich),
});
