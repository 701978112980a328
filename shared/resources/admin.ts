import * as v from 'valibot';
import { blankable, presentString } from '../http/param-schemas.js';
import { ALL_OPERATIONS, defineResource } from './define.js';
import { fireStatus } from '../events/fire-status.js';
import { emailParam, listOf, optionalId, optionalText, timeParam } from './field-schemas.js';

const time = v.optional(blankable(timeParam));

/**
 * Blacklist clearing jobs. The record is kept now; running the unblock over the blacklist comes
 * with the contacts work, so `succeeded_at` stays empty and `unblock_count` 0 until then.
 */
export const unblockContactJobs = defineResource({
  name: 'unblock_contact_jobs',
  group: 'admin',
  root: 'unblock_contact_job',
  plural: 'unblock_contact_jobs',
  type: 'UnblockContactJob',
  operations: ['list', 'new', 'create', 'show', 'delete'],
  createSchema: v.object({ description: optionalText, blocked_at_from: time, blocked_at_to: time, request_ip: optionalText, last_contact_id: optionalText }),
  updateSchema: v.object({ description: optionalText, blocked_at_from: time, blocked_at_to: time, request_ip: optionalText, last_contact_id: optionalText }),
  defaults: { unblock_count: 0 },
  columns: ['company_id', 'user_id', 'description', 'succeeded_at', 'blocked_at_from', 'blocked_at_to', 'request_ip', 'last_contact_id', 'unblock_count'],
  fulltextFields: ['description', 'request_ip'],
  generate: (context) => ({ user_id: context.userId ?? null }),
});

const manualFireFields = v.object({
  outgoing_webhook_id: optionalId,
  buyer_conversion_id: optionalId,
  lead_id: optionalId,
  call_id: optionalId,
  created_at: time,
  updated_at: time,
});

/**
 * Manual fires of an outgoing webhook: creating one sends the webhook's URLs for the call or lead
 * named (shared/events/manual-fire-behaviour.ts); the fire shows each attempt's log id and how
 * the sends went.
 */
export const webhookManualFires = defineResource({
  name: 'webhook_manual_fires',
  group: 'admin',
  root: 'webhook_manual_fire',
  plural: 'webhook_manual_fires',
  type: 'WebhookManualFire',
  operations: ['list', 'new', 'create', 'show'],
  // The same fields prefill `new` (the update schema) and create a fire.
  createSchema: manualFireFields,
  updateSchema: manualFireFields,
  defaults: { webhook_log_ids: [], url_count: 0, delivered_count: 0, failed_count: 0, last_status_code: null, last_error: null },
  columns: [
    'name',
    'context_menu_name',
    'company_id',
    'outgoing_webhook_id',
    'buyer_conversion_id',
    'lead_id',
    'call_id',
    'webhook_log_ids',
    'fire_status',
    'url_count',
    'delivered_count',
    'failed_count',
    'last_status_code',
    'last_error',
  ],
  derive: (record) => {
    const name = `Manual fire #${record.id}`;
    return { name, context_menu_name: name, fire_status: fireStatus(record) };
  },
  behaviour: () => import('../events/manual-fire-behaviour.js'),
});

/** Teams: a name and the e-mail addresses of their members. */
export const accessControlLists = defineResource({
  name: 'access_control_lists',
  group: 'admin',
  root: 'access_control_list',
  plural: 'access_control_lists',
  type: 'AccessControlList',
  operations: ALL_OPERATIONS,
  createSchema: v.object({ name: presentString, users_emails: v.optional(blankable(listOf(emailParam, 'is not a list of e-mail addresses'))) }),
  updateSchema: v.object({
    name: v.optional(presentString),
    users_emails: v.optional(blankable(listOf(emailParam, 'is not a list of e-mail addresses'))),
  }),
  defaults: { users_emails: [] },
  columns: ['company_id', 'name', 'users_emails'],
  order: { values: ['id', 'name', 'created_at', 'updated_at'], default: 'id' },
  fulltextFields: ['name', 'users_emails'],
});
