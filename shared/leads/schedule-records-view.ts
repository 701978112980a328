import { defineView } from '../resources/define.js';
import * as routing from '../resources/routing/schedules.js';

/** How the resources of schedule-records-resource.ts are shown (their views); their write side stays there. Imports no schema. */

export const scheduleActionGroupsView = defineView({
  name: routing.scheduleActionGroups.name,
  type: 'ScheduleActionGroup',
  columns: ['company_id', 'name', 'description', 'schedule_action_ids'],
  foreignKeys: { schedule_action_ids: { resource: 'schedule_actions' } },
});

export const scheduleTriggersView = defineView({
  name: routing.scheduleTriggers.name,
  type: 'ScheduleTrigger',
  columns: ['company_id', 'name', 'schedule_id', 'source_schedule_id', 'trigger_event', 'record_token_filter_list', 'enabled'],
  foreignKeys: { schedule_id: { resource: 'schedules' }, source_schedule_id: { resource: 'schedules' } },
});

export const scheduleDistributionsView = defineView({
  name: routing.scheduleDistributions.name,
  type: 'ScheduleDistribution',
  columns: ['company_id', 'name', 'schedule_id', 'target_schedule_id', 'weight', 'enabled'],
  foreignKeys: { schedule_id: { resource: 'schedules' }, target_schedule_id: { resource: 'schedules' } },
});
