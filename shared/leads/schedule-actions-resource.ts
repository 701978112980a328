import * as v from 'valibot';
import { blankable, booleanParam, decimalParam, idParam, integerParam, oneOf } from '../http/param-schemas.js';
import { CHOICE_BRANCHES } from './schedule-steps.js';
import { DAYS_OF_WEEK, waitFieldErrors, WAIT_TYPES } from './wait-time.js';
import { defineResource } from '../resources/define.js';
import { integrationBrief } from '../integrations/integrations-resource.js';
import { idListParam, idListUpTo, MAX_ASSOCIATED_RECORDS, optionalCount, optionalId, optionalText, timeZoneParam } from '../resources/field-schemas.js';
import { tokenFilterListParam, tokenListParam } from '../routing/token-fields.js';
import * as routing from '../resources/routing/schedules.js';
import { scheduleActionsView } from './schedule-actions-view.js';

/**
 * Schedule actions (the reference's "Schedule action"): the steps of a schedule. The root node
 * is the action kind (`action_dial`, `action_wait`...). The engine runs the `actions` and
 * `end_of_schedule_actions` relations (docs/leads.md); the other relations are kept as records.
 */
export const OWNER_RELATIONS = [
  'actions',
  'end_of_schedule_actions',
  'webhook_actions',
  'call_disposition_actions',
  'call_control_actions',
  'key_press_flows',
  'lead_retarget_actions',
  'schedule_actions',
] as const;

export const ACTION_TYPES = [
  'dial',
  'wait',
  'webhook',
  'add_to_schedule',
  'lead_alteration',
  'crm_two',
  'lead_block',
  'lead_opt_out',
  'schedule_callback',
  'choice',
  'restart_schedule',
  'marketing_automation',
  'ftp_upload',
  'object_storage_upload',
  'data_append',
] as const;


/** `wait_until_day_of_week`: a day name, or 0-6 with 0 = Sunday; stored as the name. */
const dayOfWeekParam = blankable(
  v.pipe(
    v.union([v.string(), v.number()], 'is not a day of the week'),
    v.transform((value) => {
      const text = String(value).trim().toLowerCase();
      return /^[0-6]$/.test(text) ? DAYS_OF_WEEK[Number(text)]! : text;
    }),
    v.picklist(DAYS_OF_WEEK, `is not included in the list (${DAYS_OF_WEEK.join(', ')})`),
  ),
);

const rangeParam = (low: number, high: number) => v.optional(blankable(v.pipe(integerParam, v.minValue(low, `must be between ${low} and ${high}`), v.maxValue(high, `must be between ${low} and ${high}`))));
const optionalFlag = v.optional(booleanParam);
const idList = v.optional(v.pipe(idListParam, v.transform((ids) => ids ?? [])));

/** Everything an action carries beyond its relation and type; create and update alike. */
const actionFields = {
  name: optionalText,
  schedule_id: optionalId,
  sortable_order: v.optional(blankable(decimalParam)),
  record_token_filter_list: v.optional(tokenFilterListParam),
  token_value_map_group_ids: idList,
  token_value_ids: idList,
  sms_body: optionalText,
  email_title: optionalText,
  email_body: optionalText,
  email_type: optionalText,
  email_from: optionalText,
  email_domain: optionalText,
  outgoing_webhook_id: optionalId,
  action_wait_type: v.optional(blankable(oneOf(WAIT_TYPES))),
  wait_until_day_of_week: v.optional(dayOfWeekParam),
  wait_until_hour: rangeParam(0, 23),
  wait_until_minute: rangeParam(0, 59),
  wait_until_time_zone: v.optional(blankable(timeZoneParam)),
  wait_seconds: optionalCount,
  wait_minutes: optionalCount,
  wait_hours: optionalCount,
  wait_days: optionalCount,
  choice_action_type: v.optional(blankable(oneOf(CHOICE_BRANCHES))),
  sub_action: v.optional(blankable(oneOf(CHOICE_BRANCHES))),
  add_to_schedule_id: optionalId,
  mailing_list_id: optionalId,
  campaign_id: optionalId,
  calls_on_hold_limit: optionalCount,
  when_buyer_would_convert: optionalFlag,
  when_buyer_available: optionalFlag,
  available_cc_percentage: rangeParam(0, 100),
  during_daylight_hours: optionalFlag,
  lead_alteration_ids: idList,
  // lead_alteration: the tokens set on the lead's data (`key:value`, `{{token}}` allowed in values).
  record_token_additional_list: v.optional(tokenListParam),
  // object_storage_upload: where under the bucket (or folder) the lead's JSON goes.
  object_storage_key_prefix: optionalText,
  // The integrations the action works with, shown in the envelope's `associations`.
  integration_ids: v.optional(v.pipe(idListUpTo(MAX_ASSOCIATED_RECORDS), v.transform((ids) => ids ?? []))),
};

const relation = oneOf(OWNER_RELATIONS);
const actionType = oneOf(ACTION_TYPES);

/** The per-type rules, on the record as it will be. */
export function checkAction(record: Record<string, unknown>): Record<string, string[]> {
  const errors: Record<string, string[]> = {};
  const need = (field: string, message = "can't be blank for this action type") => {
    if (record[field] === null || record[field] === undefined || record[field] === '') errors[field] = [message];
  };
  switch (record.action_type) {
    case 'wait':
    case 'schedule_callback':
      Object.assign(errors, waitFieldErrors(record));
      break;
    case 'webhook':
      need('outgoing_webhook_id');
      break;
    case 'add_to_schedule':
      need('add_to_schedule_id');
      if (record.add_to_schedule_id !== null && record.add_to_schedule_id !== undefined && record.add_to_schedule_id === record.schedule_id) {
        errors.add_to_schedule_id = ['must be another schedule than the action’s own'];
      }
      break;
    case 'lead_alteration':
      need('record_token_additional_list');
      break;
  }
  return errors;
}

export const scheduleActions = defineResource({
  ...routing.scheduleActions,
  ...scheduleActionsView,
  root: 'schedule_action',
  rootByField: { field: 'action_type', prefix: 'action_', values: ACTION_TYPES },
  associations: { integrations: { resource: 'integrations', via: 'integration_ids', brief: integrationBrief } },
  plural: 'schedule_actions',
  createSchema: v.object({ ...actionFields, owner_relation: relation, action_type: actionType }),
  // The relation and the kind stay what they were created as (a different kind is a new action).
  updateSchema: v.object(actionFields),
  defaults: {
    name: null,
    schedule_id: null,
    owner_relation: null,
    action_type: null,
    sortable_order: null,
    record_token_filter_list: null,
    token_value_map_group_ids: [],
    token_value_ids: [],
    sms_body: null,
    email_title: null,
    email_body: null,
    email_type: null,
    email_from: null,
    email_domain: null,
    outgoing_webhook_id: null,
    action_wait_type: null,
    wait_until_day_of_week: null,
    wait_until_hour: null,
    wait_until_minute: null,
    wait_until_time_zone: null,
    wait_seconds: null,
    wait_minutes: null,
    wait_hours: null,
    wait_days: null,
    choice_action_type: null,
    sub_action: null,
    add_to_schedule_id: null,
    mailing_list_id: null,
    campaign_id: null,
    calls_on_hold_limit: null,
    when_buyer_would_convert: false,
    when_buyer_available: false,
    available_cc_percentage: null,
    during_daylight_hours: false,
    lead_alteration_ids: [],
    record_token_additional_list: null,
    object_storage_key_prefix: null,
    integration_ids: [],
  },
  filters: { schedule_id: { schema: idParam }, owner_relation: { schema: relation }, action_type: { schema: actionType } },
  order: { values: ['id', 'sortable_order', 'name', 'created_at', 'updated_at'], default: 'id' },
  fulltextFields: ['name'],
  check: checkAction,
  behaviour: () => import('./schedule-action-behaviour.js'),
});
