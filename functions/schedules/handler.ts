import { createRouteGroupHandler } from '../../shared/http/handler.js';
import { schedulesRoutes } from '../../shared/http/routes/schedules.js';
import { groupOperations } from '../../shared/resources/engine.js';
import { schedules } from '../../shared/resources/schedules.js';
import { scheduleActions } from '../../shared/resources/schedule-actions.js';
import { scheduleActionGroups, scheduleTriggers, scheduleDistributions } from '../../shared/resources/schedule-records.js';
import { scheduledCallbacks } from '../../shared/resources/scheduled-callbacks.js';
import { leadRetargets } from '../../shared/resources/lead-retargets.js';
import { makeCall } from './make-call.js';
import { listLeadRetargetLogs } from './retarget-logs.js';

/** Schedules and their actions, triggers, distributions, callbacks; lead retargets and their logs; make_call. */
export const handler = createRouteGroupHandler('schedules', schedulesRoutes, {
  ...groupOperations('schedules', [schedules, scheduleActions, scheduleActionGroups, scheduleTriggers, scheduleDistributions, scheduledCallbacks, leadRetargets]),
  'schedules.makeCall': makeCall,
  'lead_retarget_logs.list': listLeadRetargetLogs,
});
