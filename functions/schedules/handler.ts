import { createRouteGroupHandler } from '../../shared/http/handler.js';
import { lazyOperation } from '../../shared/http/lazy-operation.js';
import { lazyGroupOperations } from '../../shared/resources/lazy-operations.js';
import { schedulesRoutings } from '../../shared/resources/routing/schedules.js';
import { schedulesRoutes } from '../../shared/http/routes/schedules.js';

/** Schedules and their actions, triggers, distributions, callbacks; lead retargets and their logs; make_call. */
export const handler = createRouteGroupHandler('schedules', schedulesRoutes, {
  ...lazyGroupOperations('schedules', schedulesRoutings, async () => {
    const { schedules } = await import('../../shared/leads/schedules-resource.js');
    const { scheduleActions } = await import('../../shared/leads/schedule-actions-resource.js');
    const { scheduleActionGroups, scheduleTriggers, scheduleDistributions } = await import('../../shared/leads/schedule-records-resource.js');
    const { scheduledCallbacks } = await import('../../shared/leads/scheduled-callbacks-resource.js');
    const { leadRetargets } = await import('../../shared/leads/lead-retargets-resource.js');
    return [schedules, scheduleActions, scheduleActionGroups, scheduleTriggers, scheduleDistributions, scheduledCallbacks, leadRetargets];
  }),
  'schedules.makeCall': lazyOperation(async () => (await import('./make-call.js')).makeCall),
  'lead_retarget_logs.list': lazyOperation(async () => (await import('./retarget-logs.js')).listLeadRetargetLogs),
});
