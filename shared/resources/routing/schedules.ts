import { ALL_OPERATIONS } from '../define.js';
import { routing, type ResourceRouting } from './resource-routing.js';

/** The routing facts of the resources the schedules function serves (a function imports only its own group's). */
export const schedules = routing({ name: 'schedules', group: 'schedules', operations: ALL_OPERATIONS, csv: true });
export const scheduleActions = routing({ name: 'schedule_actions', group: 'schedules', operations: ALL_OPERATIONS });
export const scheduleActionGroups = routing({ name: 'schedule_action_groups', group: 'schedules', operations: ALL_OPERATIONS });
export const scheduleTriggers = routing({ name: 'schedule_triggers', group: 'schedules', operations: ALL_OPERATIONS });
export const scheduleDistributions = routing({ name: 'schedule_distributions', group: 'schedules', operations: ALL_OPERATIONS });
export const scheduledCallbacks = routing({ name: 'scheduled_callbacks', group: 'schedules', operations: ALL_OPERATIONS });
export const leadRetargets = routing({ name: 'lead_retargets', group: 'schedules', operations: ALL_OPERATIONS });

/** The schedules group's resources, in the route table's order. */
export const schedulesRoutings: readonly ResourceRouting[] = [schedules, scheduleActions, scheduleActionGroups, scheduleTriggers, scheduleDistributions, scheduledCallbacks, leadRetargets];
