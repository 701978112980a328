import { needs } from '../../auth/permissions.js';
import { API, type RouteDefinition } from '../route-definition.js';

/** The calls function's routes. Literal segments beat `{id}` (live_calls, send_key_press); `{id}` is an id or a uuid. */
export const callsRoutes: readonly RouteDefinition[] = [
  { method: 'GET', path: `${API}/calls`, group: 'calls', auth: 'basic', operation: 'calls.list', permission: needs('calls', 'list', { buyerTeam: true }) },
  { method: 'GET', path: `${API}/calls.csv`, group: 'calls', auth: 'basic', operation: 'calls.list', permission: needs('calls', 'list', { buyerTeam: true }) },
  { method: 'GET', path: `${API}/calls/{caller_number}/by_caller_number`, group: 'calls', auth: 'basic', operation: 'calls.byCallerNumber', permission: needs('calls', 'list') },
  { method: 'GET', path: `${API}/calls/live_calls`, group: 'calls', auth: 'basic', operation: 'calls.live', permission: needs('calls', 'list') },
  { method: 'GET', path: `${API}/calls/reports`, group: 'calls', auth: 'basic', operation: 'calls.reports', permission: needs('calls', 'list') },
  { method: 'GET', path: `${API}/calls/stats`, group: 'calls', auth: 'basic', operation: 'calls.stats', permission: needs('calls', 'list') },
  { method: 'GET', path: `${API}/calls/{id}`, group: 'calls', auth: 'basic', operation: 'calls.show', permission: needs('calls', 'show', { buyerTeam: true }) },
  { method: 'GET', path: `${API}/calls/{id}/events`, group: 'calls', auth: 'basic', operation: 'calls.events', permission: needs('calls', 'show') },
  { method: 'POST', path: `${API}/calls/{id}`, group: 'calls', auth: 'basic', operation: 'calls.update', permission: needs('calls', 'update', { buyerTeam: true }) },
  { method: 'POST', path: `${API}/calls/update_by_caller_id/{caller_id}`, group: 'calls', auth: 'basic', operation: 'calls.updateByCallerId', permission: needs('calls', 'update') },
  // Buyers' conversion postbacks by the call's uuid, authorised by a user's auth_token (in the body) or Basic (docs/compatibility.md).
  { method: 'POST', path: `${API}/calls/update_call/{id}`, group: 'calls', auth: 'basic', operation: 'calls.update', permission: needs('calls', 'update', { buyerTeam: true }) },
  { method: 'POST', path: `${API}/calls/send_key_press`, group: 'calls', auth: 'basic', operation: 'calls.sendKeyPress', permission: needs('calls', 'update') },
  { method: 'DELETE', path: `${API}/calls/{id}`, group: 'calls', auth: 'basic', operation: 'calls.hangUp', permission: needs('calls', 'delete') },
  { method: 'PUT', path: `${API}/secure/{secure_token}/calls/{uuid}`, group: 'calls', auth: 'secure_token', operation: 'calls.secureUpdate' },
  { method: 'DELETE', path: `${API}/secure/{secure_token}/calls/{uuid}`, group: 'calls', auth: 'secure_token', operation: 'calls.secureHangUp' },
  { method: 'GET', path: `${API}/secure/{secure_token}/calls/{uuid}/data`, group: 'calls', auth: 'secure_token', operation: 'calls.secureData' },
  { method: 'GET', path: `${API}/call_logs`, group: 'calls', auth: 'basic', operation: 'call_logs.list', permission: needs('call_logs', 'list') },
  { method: 'GET', path: `${API}/charge_rollups`, group: 'calls', auth: 'basic', operation: 'charge_rollups.list', permission: needs('charge_rollups', 'list') },
  // Reporting: datasets read rollups only; impressions and do-not-call checks are day logs.
  { method: 'GET', path: `${API}/datasets`, group: 'calls', auth: 'basic', operation: 'datasets.list', permission: needs('datasets', 'list') },
  { method: 'GET', path: `${API}/datasets/calls/{stat}`, group: 'calls', auth: 'basic', operation: 'datasets.calls', permission: needs('datasets', 'list') },
  { method: 'GET', path: `${API}/datasets/leads/{stat}`, group: 'calls', auth: 'basic', operation: 'datasets.leads', permission: needs('datasets', 'list') },
  { method: 'GET', path: `${API}/datasets/billing`, group: 'calls', auth: 'basic', operation: 'datasets.billing', permission: needs('datasets', 'list') },
  { method: 'GET', path: `${API}/datasets/number_impressions`, group: 'calls', auth: 'basic', operation: 'datasets.numberImpressions', permission: needs('datasets', 'list') },
  { method: 'GET', path: `${API}/impressions`, group: 'calls', auth: 'basic', operation: 'impressions.list', permission: needs('impressions', 'list') },
  { method: 'GET', path: `${API}/dnc_check_logs`, group: 'calls', auth: 'basic', operation: 'dnc_check_logs.list', permission: needs('dnc_check_logs', 'list') },
];
