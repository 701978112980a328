import * as v from 'valibot';
import { booleanParam, idParam, integerParam, oneOf, presentString } from '../http/param-schemas.js';
import { defineResource } from '../resources/define.js';
import { idListParam, optionalId, optionalText } from '../resources/field-schemas.js';
import { tokenFilterListParam } from '../routing/token-fields.js';
import * as routing from '../resources/routing/schedules.js';
import { scheduleActionGroupsView, scheduleTriggersView, scheduleDistributionsView } from './schedule-records-view.js';

/**
 * The schedules' smaller companions (docs/leads.md, "Schedules and the engine"):
 * - schedule_action_groups: named sets of schedule actions (agent statuses name one); records only.
 * - schedule_triggers: when a lead ends its schedule through the engine (`lead_ended`) and matches
 *   the trigger's filter (its tokens include status and end_reason), a new lead of the trigger's
 *   schedule starts with the same contact and data.
 * - schedule_distributions: a weighted split of a schedule's new leads: at a lead's first step,
 *   the enabled rows of its schedule pick (by weight, deterministic per lead) the schedule it runs.
 */
const idList = v.optional(v.pipe(idListParam, v.transform((ids) => ids ?? [])));
const ownId = (message: string) => v.pipe(integerParam, v.minValue(1, message));

export const scheduleActionGroups = defineResource({
  ...routing.scheduleActionGroups,
  ...scheduleActionGroupsView,
  root: 'schedule_action_group',
  plural: 'schedule_action_groups',
  createSchema: v.object({ name: presentString, description: optionalText, schedule_action_ids: idList }),
  updateSchema: v.object({ name: v.optional(presentString), description: optionalText, schedule_action_ids: idList }),
  defaults: { name: null, description: null, schedule_action_ids: [] },
  order: { values: ['id', 'name', 'created_at', 'updated_at'], default: 'id' },
  fulltextFields: ['name', 'description'],
});

export const SCHEDULE_TRIGGER_EVENTS = ['lead_ended'] as const;

const triggerFields = {
  name: optionalText,
  source_schedule_id: optionalId,
  record_token_filter_list: v.optional(tokenFilterListParam),
  enabled: v.optional(booleanParam),
};

export const scheduleTriggers = defineResource({
  ...routing.scheduleTriggers,
  ...scheduleTriggersView,
  root: 'schedule_trigger',
  plural: 'schedule_triggers',
  createSchema: v.object({ ...triggerFields, schedule_id: ownId('is not a valid id'), trigger_event: v.optional(oneOf(SCHEDULE_TRIGGER_EVENTS)) }),
  updateSchema: v.object({ ...triggerFields, schedule_id: v.optional(idParam), trigger_event: v.optional(oneOf(SCHEDULE_TRIGGER_EVENTS)) }),
  defaults: { name: null, schedule_id: null, source_schedule_id: null, trigger_event: 'lead_ended', record_token_filter_list: null, enabled: true },
  filters: { schedule_id: { schema: idParam }, source_schedule_id: { schema: idParam } },
  order: { values: ['id', 'name', 'created_at', 'updated_at'], default: 'id' },
  fulltextFields: ['name'],
  check: (record): Record<string, string[]> => (record.schedule_id === record.source_schedule_id ? { source_schedule_id: ['must be another schedule than schedule_id'] } : {}),
});

export const scheduleDistributions = defineResource({
  ...routing.scheduleDistributions,
  ...scheduleDistributionsView,
  root: 'schedule_distribution',
  plural: 'schedule_distributions',
  createSchema: v.object({
    name: optionalText,
    schedule_id: ownId('is not a valid id'),
    target_schedule_id: ownId('is not a valid id'),
    weight: v.optional(v.pipe(integerParam, v.minValue(0, 'must be greater than or equal to 0'), v.maxValue(1_000_000, 'must be less than or equal to 1000000'))),
    enabled: v.optional(booleanParam),
  }),
  updateSchema: v.object({
    name: optionalText,
    target_schedule_id: v.optional(idParam),
    weight: v.optional(v.pipe(integerParam, v.minValue(0, 'must be greater than or equal to 0'), v.maxValue(1_000_000, 'must be less than or equal to 1000000'))),
    enabled: v.optional(booleanParam),
  }),
  defaults: { name: null, schedule_id: null, target_schedule_id: null, weight: 1, enabled: true },
  filters: { schedule_id: { schema: idParam } },
  order: { values: ['id', 'name', 'weight', 'created_at', 'updated_at'], default: 'id' },
  fulltextFields: ['name'],
});
