/**
 * The route table: every endpoint of the service, declared once. The CDK stack creates one API
 * Gateway route per entry, the local gateway serves exactly these, and a test checks that every
 * entry has an operation in its route group's function.
 *
 * Resource routes are generated from the resources' routing facts (shared/resources/routing.ts,
 * which loads none of their schemas, so a function's route table costs it nothing);
 * endpoints with behaviour of their own are listed below them. Paths use API Gateway's
 * `{param}` syntax so the route key is the same string in every mode.
 */
import { type ResourceRouting, resourceRoutings } from '../resources/routing.js';
import { MAX_UPLOAD_BYTES } from '../contact-imports/import-keys.js';
import type { LargeFieldLimit } from './input-limits.js';
import type { RouteGroup } from './route-groups.js';

export { routeGroups, type RouteGroup } from './route-groups.js';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE' | 'OPTIONS';

/**
 * How a request is authorised:
 * - basic: `Authorization: Basic base64(public:private)` or a per-user `auth_token` parameter;
 * - lead_token / secure_token / ping: the token in the path or parameters;
 * - carrier: the voice carrier's request signature (X-Twilio-Signature);
 * - none: public.
 */
export type AuthKind = 'basic' | 'lead_token' | 'secure_token' | 'ping' | 'carrier' | 'none';

export interface RouteDefinition {
  method: HttpMethod;
  path: string;
  group: RouteGroup;
  auth: AuthKind;
  /** Name of the operation inside the group's function. */
  operation: string;
  /** A larger body and one long field (uploads); others keep INPUT_LIMITS. */
  largeField?: LargeFieldLimit;
  /** The body is not parsed: the operation gets its bytes (a file PUT as is), at most `maxBytes`. */
  rawBody?: { maxBytes: number };
}

const API = '/api/v1';

/** The routes of a registry resource: the operations it supports, plus `.csv` for CSV lists. */
export function resourceRoutes(resource: ResourceRouting): RouteDefinition[] {
  const base = `${API}/${resource.name}`;
  const route = (method: HttpMethod, path: string, operation: string): RouteDefinition => ({
    method,
    path,
    group: resource.group,
    auth: 'basic',
    operation: `${resource.name}.${operation}`,
  });
  const out: RouteDefinition[] = [];
  for (const operation of resource.operations) {
    switch (operation) {
      case 'list':
        out.push(route('GET', base, 'list'));
        if (resource.csv) out.push(route('GET', `${base}.csv`, 'list'));
        break;
      case 'new':
        out.push(route('GET', resource.newPath ?? `${base}/new`, 'new'));
        break;
      case 'create':
        out.push({ ...route('POST', resource.createPath ?? base, 'create'), ...(resource.createLargeField ? { largeField: resource.createLargeField } : {}) });
        break;
      case 'show':
        out.push(route('GET', `${base}/{id}`, 'show'));
        break;
      case 'update':
        out.push(route('PUT', `${base}/{id}`, 'update'));
        break;
      case 'delete':
        out.push(route('DELETE', `${base}/{id}`, 'delete'));
        break;
    }
  }
  return out;
}

/** Endpoints that are not one of a resource's six operations. */
const behaviourRoutes: RouteDefinition[] = [
  { method: 'DELETE', path: `${API}/subscriptions`, group: 'subscriptions', auth: 'basic', operation: 'subscriptions.deleteByTargetUrl' },
  { method: 'PUT', path: `${API}/integrations/objects/{id}`, group: 'integrations', auth: 'basic', operation: 'integrations.setActive' },
  { method: 'GET', path: `${API}/collections/{type}`, group: 'admin', auth: 'basic', operation: 'collections.show' },
  // Ping and post: found by vanity name, no company credentials; GET too, and CORS preflight.
  ...(['ping', 'post'] as const).flatMap((kind): RouteDefinition[] => [
    { method: 'POST', path: `${API}/inbound_webhooks/${kind}/{vanity_uri}`, group: 'inbound', auth: 'ping', operation: `inbound_webhooks.${kind}` },
    { method: 'GET', path: `${API}/inbound_webhooks/${kind}/{vanity_uri}`, group: 'inbound', auth: 'ping', operation: `inbound_webhooks.${kind}` },
    { method: 'OPTIONS', path: `${API}/inbound_webhooks/${kind}/{vanity_uri}`, group: 'inbound', auth: 'none', operation: 'inbound_webhooks.preflight' },
  ]),
  // The voice carrier's webhooks (Twilio-compatible), authorised by its request signature.
  ...(['incoming', 'dial_action', 'dial_status', 'status', 'whisper', 'whisper_result', 'outbound_answer', 'recording', 'router_answer', 'key_press', 'sms'] as const).map(
    (step): RouteDefinition => ({ method: 'POST', path: `${API}/voice/twilio/${step}`, group: 'voice', auth: 'carrier', operation: `voice.${step}` }),
  ),
  // Leads and schedules: outbound dialing (docs/leads.md, "Outbound dialing").
  { method: 'GET', path: `${API}/leads/{id}/buyer_is_available`, group: 'leads', auth: 'basic', operation: 'leads.buyerIsAvailable' },
  { method: 'POST', path: `${API}/schedules/make_call`, group: 'schedules', auth: 'basic', operation: 'schedules.makeCall' },
  { method: 'GET', path: `${API}/inbound_webhook_logs`, group: 'inbound', auth: 'basic', operation: 'inbound_webhook_logs.list' },
  { method: 'GET', path: `${API}/webhook_logs`, group: 'subscriptions', auth: 'basic', operation: 'webhook_logs.list' },
  { method: 'GET', path: `${API}/webhook_logs/{id}`, group: 'subscriptions', auth: 'basic', operation: 'webhook_logs.show' },
  // The audit trail of every create, update and delete through the resource engine (docs/resources.md, "Change logs").
  { method: 'GET', path: `${API}/change_logs`, group: 'subscriptions', auth: 'basic', operation: 'change_logs.list' },
  { method: 'GET', path: `${API}/change_logs/{id}`, group: 'subscriptions', auth: 'basic', operation: 'change_logs.show' },
  { method: 'POST', path: `${API}/contacts/{caller_id}/caller_block`, group: 'contacts', auth: 'basic', operation: 'contacts.callerBlock' },
  { method: 'POST', path: `${API}/contacts/{caller_id}/caller_unblock`, group: 'contacts', auth: 'basic', operation: 'contacts.callerUnblock' },
  { method: 'GET', path: `${API}/contacts/suppression_list`, group: 'contacts', auth: 'basic', operation: 'contacts.suppressionList' },
  { method: 'GET', path: `${API}/buyers/{user_buyer_id}/by_user_buyer_id`, group: 'buyers', auth: 'basic', operation: 'buyers.showByUserBuyerId' },
  { method: 'GET', path: `${API}/phone_numbers/search`, group: 'numbers', auth: 'basic', operation: 'phone_numbers.search' },
  // Dynamic number insertion: a ring pool number for a landing-page visitor (docs/call-configuration.md).
  { method: 'POST', path: `${API}/ring_pools/{id}/visitor_number`, group: 'configuration', auth: 'basic', operation: 'ring_pools.visitorNumber' },
  { method: 'POST', path: `${API}/number_orders/{id}/resume`, group: 'numbers', auth: 'basic', operation: 'number_orders.resume' },
  // A sound file's audio for the carrier, authorised by the file's playback token in the path.
  { method: 'GET', path: `${API}/sound_files/audio/{token}`, group: 'configuration', auth: 'none', operation: 'sound_files.audio' },
  { method: 'GET', path: `${API}/lead_retarget_logs`, group: 'schedules', auth: 'basic', operation: 'lead_retarget_logs.list' },
  // Calls. Literal segments beat `{id}` (live_calls, send_key_press); `{id}` is an id or a uuid.
  { method: 'GET', path: `${API}/calls`, group: 'calls', auth: 'basic', operation: 'calls.list' },
  { method: 'GET', path: `${API}/calls.csv`, group: 'calls', auth: 'basic', operation: 'calls.list' },
  { method: 'GET', path: `${API}/calls/{caller_number}/by_caller_number`, group: 'calls', auth: 'basic', operation: 'calls.byCallerNumber' },
  { method: 'GET', path: `${API}/calls/live_calls`, group: 'calls', auth: 'basic', operation: 'calls.live' },
  { method: 'GET', path: `${API}/calls/reports`, group: 'calls', auth: 'basic', operation: 'calls.reports' },
  { method: 'GET', path: `${API}/calls/stats`, group: 'calls', auth: 'basic', operation: 'calls.stats' },
  { method: 'GET', path: `${API}/calls/{id}`, group: 'calls', auth: 'basic', operation: 'calls.show' },
  { method: 'GET', path: `${API}/calls/{id}/events`, group: 'calls', auth: 'basic', operation: 'calls.events' },
  { method: 'POST', path: `${API}/calls/{id}`, group: 'calls', auth: 'basic', operation: 'calls.update' },
  { method: 'POST', path: `${API}/calls/update_by_caller_id/{caller_id}`, group: 'calls', auth: 'basic', operation: 'calls.updateByCallerId' },
  { method: 'POST', path: `${API}/calls/send_key_press`, group: 'calls', auth: 'basic', operation: 'calls.sendKeyPress' },
  { method: 'DELETE', path: `${API}/calls/{id}`, group: 'calls', auth: 'basic', operation: 'calls.hangUp' },
  { method: 'PUT', path: `${API}/secure/{secure_token}/calls/{uuid}`, group: 'calls', auth: 'secure_token', operation: 'calls.secureUpdate' },
  { method: 'DELETE', path: `${API}/secure/{secure_token}/calls/{uuid}`, group: 'calls', auth: 'secure_token', operation: 'calls.secureHangUp' },
  { method: 'GET', path: `${API}/secure/{secure_token}/calls/{uuid}/data`, group: 'calls', auth: 'secure_token', operation: 'calls.secureData' },
  { method: 'GET', path: `${API}/call_logs`, group: 'calls', auth: 'basic', operation: 'call_logs.list' },
  { method: 'GET', path: `${API}/charge_rollups`, group: 'calls', auth: 'basic', operation: 'charge_rollups.list' },
  // Reporting: datasets read rollups only; impressions and do-not-call checks are day logs.
  { method: 'GET', path: `${API}/datasets`, group: 'calls', auth: 'basic', operation: 'datasets.list' },
  { method: 'GET', path: `${API}/datasets/calls/{stat}`, group: 'calls', auth: 'basic', operation: 'datasets.calls' },
  { method: 'GET', path: `${API}/datasets/leads/{stat}`, group: 'calls', auth: 'basic', operation: 'datasets.leads' },
  { method: 'GET', path: `${API}/datasets/billing`, group: 'calls', auth: 'basic', operation: 'datasets.billing' },
  { method: 'GET', path: `${API}/datasets/number_impressions`, group: 'calls', auth: 'basic', operation: 'datasets.numberImpressions' },
  { method: 'GET', path: `${API}/impressions`, group: 'calls', auth: 'basic', operation: 'impressions.list' },
  { method: 'GET', path: `${API}/dnc_check_logs`, group: 'calls', auth: 'basic', operation: 'dnc_check_logs.list' },
  // Leads. Submission and the caller operations are authorised by a lead token, not Basic auth;
  // literal segments (new, reports) beat `{id}`. GET /leads/{id}/buyer_is_available comes with outbound dialing.
  { method: 'POST', path: `${API}/leads`, group: 'leads', auth: 'lead_token', operation: 'leads.submit' },
  { method: 'OPTIONS', path: `${API}/leads`, group: 'leads', auth: 'none', operation: 'leads.preflight' },
  { method: 'GET', path: `${API}/leads`, group: 'leads', auth: 'basic', operation: 'leads.list' },
  { method: 'GET', path: `${API}/leads.csv`, group: 'leads', auth: 'basic', operation: 'leads.list' },
  { method: 'GET', path: `${API}/leads/new`, group: 'leads', auth: 'basic', operation: 'leads.new' },
  { method: 'GET', path: `${API}/leads/reports`, group: 'leads', auth: 'basic', operation: 'leads.reports' },
  { method: 'GET', path: `${API}/leads/{id}`, group: 'leads', auth: 'basic', operation: 'leads.show' },
  { method: 'PUT', path: `${API}/leads/{id}`, group: 'leads', auth: 'basic', operation: 'leads.update' },
  { method: 'DELETE', path: `${API}/leads/{id}/id`, group: 'leads', auth: 'basic', operation: 'leads.deleteById' },
  { method: 'GET', path: `${API}/leads/{lead_token}/{caller_number}/by_caller_number`, group: 'leads', auth: 'lead_token', operation: 'leads.byCallerNumber' },
  ...(['PUT', 'GET'] as const).map((method): RouteDefinition => ({ method, path: `${API}/leads/{caller_id}/caller_opt_out`, group: 'leads', auth: 'lead_token', operation: 'leads.callerOptOut' })),
  ...(['POST', 'DELETE', 'GET'] as const).map((method): RouteDefinition => ({ method, path: `${API}/leads/{caller_id}/caller_remove`, group: 'leads', auth: 'lead_token', operation: 'leads.callerRemove' })),
  ...(['PUT', 'POST'] as const).map((method): RouteDefinition => ({ method, path: `${API}/leads/{caller_id}/caller_move_to_end_of_schedule`, group: 'leads', auth: 'lead_token', operation: 'leads.callerMoveToEnd' })),
  // Contacts: one caller number across the company's leads and calls (`{id}` is the number).
  { method: 'GET', path: `${API}/contacts/{id}`, group: 'contacts', auth: 'basic', operation: 'contacts.show' },
  { method: 'PUT', path: `${API}/contacts/{id}`, group: 'contacts', auth: 'basic', operation: 'contacts.update' },
  { method: 'DELETE', path: `${API}/contacts/{id}/calls`, group: 'contacts', auth: 'basic', operation: 'contacts.hangUpCalls' },
  { method: 'POST', path: `${API}/data_append`, group: 'contacts', auth: 'basic', operation: 'data_append.request' },
  { method: 'POST', path: `${API}/contact_imports/{id}/resume`, group: 'contacts', auth: 'basic', operation: 'contact_imports.resume' },
  // An upload import's file, with local object storage (in AWS the file goes to S3's presigned URL); the token is the secret.
  { method: 'PUT', path: `${API}/contact_imports/uploads/{upload_token}`, group: 'contacts', auth: 'none', operation: 'contact_imports.upload', rawBody: { maxBytes: MAX_UPLOAD_BYTES } },
  // The API describes itself: its OpenAPI document, a reference page over it and the page's scripts.
  { method: 'GET', path: `${API}/openapi.json`, group: 'docs', auth: 'none', operation: 'docs.openapi' },
  { method: 'GET', path: '/docs', group: 'docs', auth: 'none', operation: 'docs.page' },
  { method: 'GET', path: '/docs/assets/{name}', group: 'docs', auth: 'none', operation: 'docs.asset' },
  { method: 'GET', path: '/', group: 'docs', auth: 'none', operation: 'docs.home' },
];

export const routes: readonly RouteDefinition[] = [...resourceRoutings.flatMap(resourceRoutes), ...behaviourRoutes];

/** API Gateway's route key, e.g. `GET /api/v1/subscriptions/{id}`. */
export function routeKey(route: Pick<RouteDefinition, 'method' | 'path'>): string {
  return `${route.method} ${route.path}`;
}

/** The routes served by one route group. */
export function routesOfGroup(group: RouteGroup): RouteDefinition[] {
  return routes.filter((route) => route.group === group);
}
