import * as v from 'valibot';
import { assignVisitorNumber } from '../../shared/call-config/visitor-numbers.js';
import { keys } from '../../shared/db/keys.js';
import { getLookup } from '../../shared/db/records.js';
import { recordEnvelope } from '../../shared/http/envelope.js';
import { HttpError, NotFoundError } from '../../shared/http/errors.js';
import type { ApiResponse, Operation, OperationRequest } from '../../shared/http/request.js';
import { validate } from '../../shared/http/validation.js';
import { logger } from '../../shared/logger.js';
import { numbersOfOffer } from '../../shared/numbers/lookup.js';
import { chooseLookupSource, decodeBase64Text, numberFormats, visitorParams } from '../../shared/numbers/number-lookup.js';
import { recordImpression } from '../../shared/reporting/number-impressions.js';
import { takeRateLimits } from '../../shared/routing/rate-limits.js';

/**
 * `GET /api/v1/numbers.json`: the number lookup the hosted service's number-replacement script
 * (trackdrive-optimizer.js) makes from a visitor's browser, exactly as it makes it
 * (docs/compatibility.md, "Number replacement script"). No credentials: the offer's
 * `offer_token`, sent as `offer_key`, names the offer (it is unique across the deployment and
 * unguessable, like a lead token). Answered with the number to show under `number`.
 */

/** Lookups per offer and minute (`NUMBER_LOOKUP_LIMIT_PER_MINUTE`), read once: every page view of an offer's pages counts. */
export const LOOKUPS_PER_MINUTE = lookupLimit(process.env.NUMBER_LOOKUP_LIMIT_PER_MINUTE);

function lookupLimit(setting: string | undefined): number {
  if (setting === undefined || setting === '') return 600;
  // A typo must not lift the limit: refused at cold start.
  if (!/^[1-9]\d{0,8}$/.test(setting)) throw new Error(`NUMBER_LOOKUP_LIMIT_PER_MINUTE must be a positive integer, not ${setting.slice(0, 20)}`);
  return Number(setting);
}

/** How long a pool number stays the visitor's, with their tokens (as ring pools' visitor numbers default to). */
export const LOOKUP_HOLD_SECONDS = 1800;

const text = (max: number) => v.optional(v.pipe(v.string('is not a string'), v.maxLength(max, `is longer than ${max} characters`)));

export const numberLookupSchema = v.object({
  offer_key: v.pipe(v.string('is required'), v.regex(/^[A-Za-z0-9]{1,64}$/, 'is not an offer token')),
  /** Base64 of the page's address. */
  referrer_url: text(8192),
  /** Base64 of the script's tokens, as a query string. */
  referrer_tokens: text(8192),
  /** The script's version. */
  td_js_v: text(32),
  /** The page's own number, shown by the script when the lookup fails (not used here). */
  default_number: text(64),
});

/**
 * CORS for the script's request: it is made with `withCredentials`, so a browser accepts the
 * answer only when it names the page's origin and allows credentials (a `*` is refused). Echoing
 * any origin is safe here because nothing is authorised by the browser's cookies: the answer
 * depends only on the parameters, which any page may send.
 */
function corsHeaders(request: OperationRequest): Record<string, string> {
  const origin = request.headers.origin;
  return origin && origin.length <= 2048
    ? { 'access-control-allow-origin': origin, 'access-control-allow-credentials': 'true', 'access-control-allow-methods': 'GET, OPTIONS', 'access-control-max-age': '86400', vary: 'Origin' }
    : { 'access-control-allow-origin': '*', 'access-control-allow-methods': 'GET, OPTIONS', 'access-control-max-age': '86400', vary: 'Origin' };
}

function answer(request: OperationRequest, statusCode: number, body: unknown): ApiResponse {
  return { statusCode, headers: { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store', ...corsHeaders(request) }, body: JSON.stringify(body) };
}

async function lookup(request: OperationRequest): Promise<Record<string, unknown>> {
  const params = validate(numberLookupSchema, request.params);
  const offer = await getLookup(keys.globalLookup('offers', 'offer_token', params.offer_key));
  if (!offer) throw new HttpError(404, 'offer_key is unknown', { offer_key: ['is unknown'] });
  const companyId = offer.company_id;
  const visitor = visitorParams(decodeBase64Text(params.referrer_url), decodeBase64Text(params.referrer_tokens));
  const trafficSourceId = /^[1-9]\d{0,14}$/.test(visitor.traffic_source_id ?? '') ? Number(visitor.traffic_source_id) : undefined;
  const source = chooseLookupSource(await numbersOfOffer(companyId, offer.id), trafficSourceId);
  if (!source) throw new NotFoundError('The offer has no tracking number');
  // Counted once the lookup would answer: a page of an offer without numbers uses up nothing.
  const limited = await takeRateLimits(companyId, [{ scope: `number_lookup#o${offer.id}`, window: 'minute', limit: LOOKUPS_PER_MINUTE, field: 'number lookups per minute' }], request.now);
  if (limited) throw new HttpError(429, 'Rate limit exceeded', { base: [`Rate limit exceeded (${limited.limit} ${limited.field} of this offer)`] });
  if (source.kind === 'number') {
    const { number } = source;
    return { id: number.id, number: number.number, ...numberFormats(number.number), offer_id: offer.id, traffic_source_id: number.traffic_source_id, ring_pool_id: null, held_until: null, visitor_key: null, visitor_value: null };
  }
  const held = await assignVisitorNumber(companyId, source.poolId, visitor, LOOKUP_HOLD_SECONDS, request.now);
  if (!held) throw new NotFoundError('The offer has no tracking number');
  // As the ring pool's visitor number does: the impression, which the visitor's number outlives.
  await recordImpression(companyId, held, request.now).catch((error: unknown) => logger.warn('impression not recorded', { companyId, error: String(error) }));
  return {
    id: held.phone_number_id,
    number: held.number,
    ...numberFormats(held.number),
    offer_id: offer.id,
    traffic_source_id: trafficSourceId ?? null,
    ring_pool_id: held.ring_pool_id,
    held_until: held.held_until,
    visitor_key: null,
    visitor_value: null,
  };
}

export const numberLookup: Operation = async (request) => {
  try {
    return { kind: 'raw', response: answer(request, 200, recordEnvelope('number', await lookup(request))) };
  } catch (error) {
    if (!(error instanceof HttpError) || error.statusCode >= 500) throw error;
    const { status, errors } = error.toJSON();
    return { kind: 'raw', response: answer(request, status, { status, errors }) };
  }
};

/** `OPTIONS /api/v1/numbers.json`: a preflight, should a page's script send one. */
export const numberLookupPreflight: Operation = async (request) => ({ kind: 'raw', response: { statusCode: 204, headers: corsHeaders(request), body: '' } });

/** The number fields of the answer, for the OpenAPI document. */
export const NUMBER_LOOKUP_COLUMNS = ['id', 'number', 'plain_number', 'human_number', 'dashed_number', 'dotted_number', 'offer_id', 'traffic_source_id', 'ring_pool_id', 'held_until', 'visitor_key', 'visitor_value'] as const;
