import { needs } from '../../auth/permissions.js';
import { API, type RouteDefinition, resourceRoutes } from '../route-definition.js';
import { schedulesRoutings } from '../../resources/routing/schedules.js';

/** The schedules function's routes: its resources', then make_call (docs/leads.md, "Outbound dialing") and lead retarget logs. */
export const schedulesRoutes: readonly RouteDefinition[] = [
  ...schedulesRoutings.flatMap(resourceRoutes),
  { method: 'POST', path: `${API}/schedules/make_call`, group: 'schedules', auth: 'basic', operation: 'schedules.makeCall', permission: needs('schedules', 'update') },
  { method: 'GET', path: `${API}/lead_retarget_logs`, group: 'schedules', auth: 'basic', operation: 'lead_retarget_logs.list', permission: needs('lead_retargets', 'list') },
];
