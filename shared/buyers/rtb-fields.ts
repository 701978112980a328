import * as v from 'valibot';
import { BUYER_TYPES, RESPONSE_PATH_MAX_CHARS, RESPONSE_PATH_NAMES, RTB_METHODS, RTB_TIMEOUT, RTB_URL_MAX_CHARS } from '../bidding/bid-settings.js';
import { blankable, decimalParam, integerParam, jsonObject, oneOf } from '../http/param-schemas.js';
import { bodyTemplateParam, headersParam, urlTemplateParam } from '../events/outgoing-request-fields.js';
import type { RTB_FIELDS } from './buyer-field-names.js';

/**
 * The write rules of a bidding buyer's fields (docs/rtb.md). The URL, body and headers are the
 * outgoing webhooks' own rules: `{{token}}` templates, the address guard on the URL
 * (WEBHOOK_ALLOWED_CIDRS), bounded headers and body; a header value may name a secret item as
 * `{{secret:<name>}}`.
 */

/** A dot path into a JSON answer: names or array indexes separated by dots (`data.bids.0.amount`). */
const answerPath = v.pipe(
  v.string('is not a string'),
  v.trim(),
  v.maxLength(RESPONSE_PATH_MAX_CHARS, `is too long (maximum is ${RESPONSE_PATH_MAX_CHARS} characters)`),
  v.regex(/^[A-Za-z0-9_$-]+(\.[A-Za-z0-9_$-]+)*$/, 'is not a dot path (names or indexes separated by dots)'),
);

const responsePaths = v.pipe(
  blankable(
    jsonObject(
      v.strictObject(Object.fromEntries(RESPONSE_PATH_NAMES.map((name) => [name, v.optional(blankable(answerPath))])) as v.ObjectEntries, `may name only ${RESPONSE_PATH_NAMES.join(', ')}`),
      `is not a hash of ${RESPONSE_PATH_NAMES.join(', ')} to dot paths`,
    ),
  ),
  v.transform((paths) => (paths ? Object.fromEntries(Object.entries(paths as Record<string, unknown>).filter(([, path]) => typeof path === 'string' && path !== '')) : null)),
);

export const rtbWritable: Record<(typeof RTB_FIELDS)[number], v.GenericSchema<unknown, unknown>> = {
  buyer_type: v.optional(oneOf(BUYER_TYPES)),
  rtb_url: v.optional(blankable(v.pipe(v.string('is not a string'), v.maxLength(RTB_URL_MAX_CHARS, `is too long (maximum is ${RTB_URL_MAX_CHARS} characters)`), urlTemplateParam))),
  rtb_method: v.optional(
    v.pipe(
      v.unknown(),
      v.transform((value) => (typeof value === 'string' ? value.trim().toUpperCase() : value)),
      oneOf(RTB_METHODS),
    ),
  ),
  rtb_body: v.optional(bodyTemplateParam),
  rtb_headers: v.optional(headersParam),
  rtb_timeout_ms: v.optional(
    v.pipe(
      blankable(
        v.pipe(
          integerParam,
          v.minValue(RTB_TIMEOUT.minMs, `must be at least ${RTB_TIMEOUT.minMs}`),
          v.maxValue(RTB_TIMEOUT.maxMs, `must be at most ${RTB_TIMEOUT.maxMs}`),
        ),
      ),
      v.transform((value) => value ?? RTB_TIMEOUT.defaultMs),
    ),
  ),
  rtb_min_bid: v.optional(blankable(v.pipe(decimalParam, v.minValue(0, 'must be greater than or equal to 0')))),
  rtb_response_paths: v.optional(responsePaths),
};

/** The rule across fields: a bidding buyer needs its endpoint. */
export function checkRtbBuyer(buyer: Record<string, unknown>): Record<string, string[]> {
  if (buyer.buyer_type === 'rtb' && (typeof buyer.rtb_url !== 'string' || buyer.rtb_url === '')) return { rtb_url: ["can't be blank when buyer_type is rtb"] };
  return {};
}
