import { createRouteGroupHandler } from '../../shared/http/handler.js';
import { groupOperations } from '../../shared/resources/engine.js';
import { resourcesOfGroup } from '../../shared/resources/registry.js';
import { makeCall } from './make-call.js';
import { listLeadRetargetLogs } from './retarget-logs.js';

/** Schedules and their actions, triggers, distributions, callbacks; lead retargets and their logs; make_call. */
export const handler = createRouteGroupHandler('schedules', {
  ...groupOperations(resourcesOfGroup('schedules')),
  'schedules.makeCall': makeCall,
  'lead_retarget_logs.list': listLeadRetargetLogs,
});
