import { createRouteGroupHandler } from '../../shared/http/handler.js';
import { groupOperations } from '../../shared/resources/engine.js';
import { resourcesOfGroup } from '../../shared/resources/registry.js';
import { makeCall } from './make-call.js';

/** Schedules and their actions, triggers, distributions, callbacks; lead retargets. */
export const handler = createRouteGroupHandler('schedules', { ...groupOperations(resourcesOfGroup('schedules')), 'schedules.makeCall': makeCall });
