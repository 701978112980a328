import { needs } from '../../auth/permissions.js';
import { API, type RouteDefinition } from '../route-definition.js';

/** The leads function's routes. Submission and the caller operations are authorised by a lead token, not Basic auth; literal segments (new, reports, stats) beat `{id}`. */
export const leadsRoutes: readonly RouteDefinition[] = [
  { method: 'POST', path: `${API}/leads`, group: 'leads', auth: 'lead_token', operation: 'leads.submit' },
  { method: 'OPTIONS', path: `${API}/leads`, group: 'leads', auth: 'none', operation: 'leads.preflight' },
  // The lead capture path some landing pages post to: the same submission (docs/compatibility.md).
  { method: 'POST', path: `${API}/leads/capture`, group: 'leads', auth: 'lead_token', operation: 'leads.submit' },
  { method: 'OPTIONS', path: `${API}/leads/capture`, group: 'leads', auth: 'none', operation: 'leads.preflight' },
  { method: 'GET', path: `${API}/leads`, group: 'leads', auth: 'basic', operation: 'leads.list', permission: needs('leads', 'list') },
  { method: 'GET', path: `${API}/leads.csv`, group: 'leads', auth: 'basic', operation: 'leads.list', permission: needs('leads', 'list') },
  { method: 'GET', path: `${API}/leads/new`, group: 'leads', auth: 'basic', operation: 'leads.new', permission: needs('leads', 'create') },
  { method: 'GET', path: `${API}/leads/reports`, group: 'leads', auth: 'basic', operation: 'leads.reports', permission: needs('leads', 'list') },
  { method: 'GET', path: `${API}/leads/stats`, group: 'leads', auth: 'basic', operation: 'leads.stats', permission: needs('leads', 'list') },
  { method: 'GET', path: `${API}/leads/{id}`, group: 'leads', auth: 'basic', operation: 'leads.show', permission: needs('leads', 'show') },
  { method: 'PUT', path: `${API}/leads/{id}`, group: 'leads', auth: 'basic', operation: 'leads.update', permission: needs('leads', 'update') },
  { method: 'DELETE', path: `${API}/leads/{id}/id`, group: 'leads', auth: 'basic', operation: 'leads.deleteById', permission: needs('leads', 'delete') },
  { method: 'GET', path: `${API}/leads/{lead_token}/{caller_number}/by_caller_number`, group: 'leads', auth: 'lead_token', operation: 'leads.byCallerNumber' },
  ...(['PUT', 'GET'] as const).map((method): RouteDefinition => ({ method, path: `${API}/leads/{caller_id}/caller_opt_out`, group: 'leads', auth: 'lead_token', operation: 'leads.callerOptOut' })),
  ...(['POST', 'DELETE', 'GET'] as const).map((method): RouteDefinition => ({ method, path: `${API}/leads/{caller_id}/caller_remove`, group: 'leads', auth: 'lead_token', operation: 'leads.callerRemove' })),
  ...(['PUT', 'POST'] as const).map((method): RouteDefinition => ({ method, path: `${API}/leads/{caller_id}/caller_move_to_end_of_schedule`, group: 'leads', auth: 'lead_token', operation: 'leads.callerMoveToEnd' })),
  // Outbound dialing (docs/leads.md, "Outbound dialing").
  { method: 'GET', path: `${API}/leads/{id}/buyer_is_available`, group: 'leads', auth: 'basic', operation: 'leads.buyerIsAvailable', permission: needs('leads', 'show') },
];
