import * as v from 'valibot';
import { dataProblems } from '../../shared/calls/call-limits.js';
import { cents } from '../../shared/calls/conversions.js';
import { ValidationError } from '../../shared/http/errors.js';
import { blankable, booleanParam, decimalParam, jsonObject } from '../../shared/http/param-schemas.js';
import type { Params } from '../../shared/http/request.js';
import { validate } from '../../shared/http/validation.js';
import { emailParam } from '../../shared/resources/field-schemas.js';

/**
 * The fields an API client may change on a call (`POST /api/v1/calls/:id`, the secure `PUT`):
 * contact fields, money, conversion flags, and `data`, a hash merged into the call's data.
 * Pure: validation only; shared/calls/call-flow.ts `adjustCall` applies them.
 */
const contactText = blankable(
  v.pipe(
    v.union([v.string(), v.number()], 'is not a string'),
    v.transform(String),
    v.trim(),
    v.maxLength(255, 'is too long (at most 255 characters)'),
    v.transform((text) => (text === '' ? null : text)),
  ),
);

/** Money in whole cents, not negative. */
export const moneyParam = v.pipe(decimalParam, v.minValue(0, 'must be greater than or equal to 0'), v.transform(cents));

/** Deepest nesting flattened; anything deeper is left as is (and refused as not a plain value). */
const FLATTEN_DEPTH = 4;

/** `{a: {b: 1}, c: [1, 2]}` → `{"a.b": 1, c: "1,2"}`. Pure. */
export function flattenHash(hash: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const add = (key: string, value: unknown, depth: number) => {
    if (value && typeof value === 'object' && !Array.isArray(value) && depth < FLATTEN_DEPTH) {
      for (const [inner, innerValue] of Object.entries(value)) add(`${key}.${inner}`, innerValue, depth + 1);
    } else if (Array.isArray(value) && value.every((item) => item === null || typeof item !== 'object')) out[key] = value.map(String).join(',');
    else out[key] = value;
  };
  for (const [key, value] of Object.entries(hash)) add(key, value, 0);
  return out;
}

/**
 * A hash of plain values (string, number, boolean, null), as call data and routing tokens are,
 * within the call data limits (shared/calls/call-limits.ts); `adjustCall` checks the merged hash
 * against the same limits.
 */
export const dataParam = jsonObject(
  v.pipe(
    // Nested hashes (a key press's `data: {customer_info: {...}}`) become dotted keys, as a
    // ping's tokens do (docs/compatibility.md): call data stays a hash of plain values.
    v.unknown(),
    v.transform((value) => flattenHash(value as Record<string, unknown>)),
    v.record(v.string(), v.union([v.string(), v.number(), v.boolean(), v.null()], 'is not a plain value (string, number, boolean or null)')),
    v.rawCheck(({ dataset, addIssue }) => {
      if (dataset.typed) for (const message of dataProblems(dataset.value)) addIssue({ message });
    }),
  ),
  'is not a hash',
);

export const changesSchema = v.object({
  first_name: v.optional(contactText),
  last_name: v.optional(contactText),
  email: v.optional(blankable(emailParam)),
  address: v.optional(contactText),
  city: v.optional(contactText),
  state: v.optional(contactText),
  zip: v.optional(contactText),
  revenue: v.optional(moneyParam),
  payout: v.optional(moneyParam),
  buyer_converted: v.optional(booleanParam),
  offer_converted: v.optional(booleanParam),
  data: v.optional(dataParam),
});

export const CHANGEABLE_FIELDS = Object.keys(changesSchema.entries);

/**
 * `post_call_tokens`, the hosted service's name of the hash of contact fields a buyer's postback
 * sends (docs/compatibility.md), merged under `data` (`data`'s own keys win). Pure.
 */
export function withPostCallTokens(params: Params): Params {
  const tokens = params.post_call_tokens;
  if (!tokens || typeof tokens !== 'object' || Array.isArray(tokens)) return params;
  const { post_call_tokens: _tokens, ...rest } = params;
  const data = rest.data && typeof rest.data === 'object' && !Array.isArray(rest.data) ? (rest.data as Record<string, unknown>) : {};
  const merged = { ...(tokens as Record<string, unknown>), ...data };
  return Object.keys(merged).length ? { ...rest, data: merged } : rest;
}

/**
 * The changes a request asks for: the fields it sent (also inside a `call` root node), validated
 * all at once (422 naming each bad field). Other parameters are ignored; sending none of the
 * fields is a 422.
 */
export function callChanges(params: Params): Record<string, unknown> {
  const wrapped = params.call;
  const unwrapped: Params = wrapped && typeof wrapped === 'object' && !Array.isArray(wrapped) ? { ...params, ...(wrapped as Params) } : params;
  const input = withPostCallTokens(unwrapped);
  const validated = validate(changesSchema, input) as Record<string, unknown>;
  const changes = Object.fromEntries(Object.entries(validated).filter(([field, value]) => field in input && value !== undefined));
  if (Object.keys(changes).length === 0) throw new ValidationError({ base: [`nothing to change (fields: ${CHANGEABLE_FIELDS.join(', ')})`] });
  return changes;
}
