import { userOfToken } from '../auth/access.js';
import { mayUseOffer, missingPermission } from '../auth/permissions.js';
import { keys } from '../db/keys.js';
import { getLookup, getRecord, type StoredRecord } from '../db/records.js';
import { HttpError, NotFoundError } from '../http/errors.js';
import type { ApiResponse, Operation, OperationRequest, Params } from '../http/request.js';
import type { MetricName } from '../observability/metric-names.js';
import { countMetric } from '../observability/metrics.js';
import type { TokenValues } from './token-filters.js';

/**
 * What ping and post share: finding the webhook from its vanity name (they carry no company
 * credentials), its optional per-user token check, the tokens a request carries, and the
 * JSON response with CORS headers (browser forms call these directly).
 */
export const CORS_HEADERS = {
  'access-control-allow-origin': '*',
  'access-control-allow-methods': 'GET, POST, OPTIONS',
  'access-control-allow-headers': 'content-type, authorization',
  'access-control-max-age': '86400',
};

export function inboundResponse(statusCode: number, body: unknown): ApiResponse {
  return { statusCode, headers: { 'content-type': 'application/json; charset=utf-8', ...CORS_HEADERS }, body: JSON.stringify(body) };
}

/**
 * A partner answer's `errors`: a list of messages, as partner scripts read it
 * (`data.errors.join(", ")`, docs/compatibility.md), a field's messages led by its name; the
 * messages by field stay in `field_errors`.
 */
export function partnerErrors(errors: Record<string, string[]>): { errors: string[]; field_errors: Record<string, string[]> } {
  const messages = Object.entries(errors).flatMap(([field, list]) => (field === 'base' ? list : list.map((message) => `${field} ${message}`)));
  return { errors: messages, field_errors: errors };
}

/** A refusal in the partners' shape: `success: false`, `status`, `errors` (partnerErrors). */
export class InboundError extends HttpError {
  constructor(statusCode: number, errors: Record<string, string[]>) {
    super(statusCode, Object.values(errors).flat().join('; '), errors);
  }
}

/**
 * Ping and post answer every refusal in the partners' shape (`success: false`, `status`,
 * `errors`) with CORS headers, instead of the generic error envelope. Each answer, accepted or
 * refused, counts once in `answered` (Pings, Posts); a failure of the service (5xx) does not.
 */
export function inboundOperation(operation: Operation, answered: MetricName): Operation {
  return async (request) => {
    try {
      const result = await operation(request);
      countMetric(answered);
      return result;
    } catch (error) {
      if (error instanceof HttpError && error.statusCode < 500) {
        const errors = Object.keys(error.errors).length ? error.errors : { base: [error.message] };
        countMetric(answered);
        return { kind: 'raw', response: inboundResponse(error.statusCode, { success: false, status: error.statusCode, ...partnerErrors(errors) }) };
      }
      throw error;
    }
  };
}

/** `OPTIONS` on ping and post: the CORS preflight of browser forms. */
export const corsPreflight: Operation = async () => ({ kind: 'raw', response: { statusCode: 204, headers: CORS_HEADERS, body: '' } });

/** The refusal of a vanity name no webhook has. */
export function noWebhook(vanity: string): NotFoundError {
  return new NotFoundError(`No inbound webhook ${vanity}`);
}

/** The webhook named by the path; 404 when no webhook has that vanity name. */
export async function findWebhook(request: OperationRequest): Promise<StoredRecord> {
  const vanity = request.pathParams.vanity_uri ?? '';
  const lookup = await getLookup(keys.globalLookup('inbound_webhooks', 'vanity_uri', vanity));
  const webhook = lookup ? await getRecord(lookup.company_id, 'inbound_webhooks', lookup.id) : undefined;
  if (!webhook) throw noWebhook(vanity);
  return webhook;
}

/**
 * With `require_user_auth_token`, the request must carry an auth_token of a user of the webhook's
 * company who may use the webhook's offer (shared/auth/permissions.ts `mayUseOffer`): 401 for a
 * missing or unknown token, 403 for a user who may not.
 */
export async function checkUserToken(webhook: StoredRecord, params: Params): Promise<number | undefined> {
  if (webhook.require_user_auth_token !== true) return undefined;
  const found = await userOfToken(params.auth_token);
  if (!found || Number(found.user.company_id) !== Number(webhook.company_id)) throw new InboundError(401, { auth_token: ['is missing or invalid'] });
  const offerId = typeof webhook.offer_id === 'number' ? webhook.offer_id : undefined;
  if (!mayUseOffer(found.access, offerId)) throw new InboundError(403, { base: [missingPermission('offers', 'show')], auth_token: ["may not use this webhook's offer"] });
  return Number(found.user.user_id);
}

/** Parameters that steer the request rather than describe the caller. */
// `trackdrive_number` is the hosted service's own name of `service_number` (docs/compatibility.md).
const CONTROL_PARAMS = new Set(['auth_token', 'caller_id', 'traffic_source_id', 'service_number', 'trackdrive_number', 'ping_id', 'vanity_uri']);

/** Every other parameter is a token for the buyers' filters (nested hashes flattened with dots). */
export function tokensOf(params: Params): TokenValues {
  const tokens: Record<string, string | number | boolean> = {};
  const add = (prefix: string, value: unknown) => {
    if (value === null || value === undefined) return;
    if (Array.isArray(value)) tokens[prefix] = value.map(String).join(',');
    else if (typeof value === 'object') for (const [key, inner] of Object.entries(value)) add(`${prefix}.${key}`, inner);
    else if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') tokens[prefix] = value;
  };
  for (const [key, value] of Object.entries(params)) {
    if (CONTROL_PARAMS.has(key)) continue;
    if (key === 'data' && value && typeof value === 'object' && !Array.isArray(value)) {
      for (const [inner, innerValue] of Object.entries(value)) add(inner, innerValue);
    } else add(key, value);
  }
  return tokens;
}

/** Parses the partners' ping id: `<ping>` (try all buyers) or `<ping>-<buyer id>`. */
export function parsePingId(value: unknown): { pingId: number; buyerId?: number } | undefined {
  const match = /^(\d{1,16})(?:-(\d{1,16}))?$/.exec(String(value ?? '').trim());
  if (!match) return undefined;
  return { pingId: Number(match[1]), buyerId: match[2] === undefined ? undefined : Number(match[2]) };
}
