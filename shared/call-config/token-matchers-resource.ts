import * as v from 'valibot';
import { booleanParam, idParam, oneOf } from '../http/param-schemas.js';
import { MATCH_TYPES, patternProblem } from './text-match.js';
import { defineResource } from '../resources/define.js';
import { optionalId, optionalText } from '../resources/field-schemas.js';
import { tokenListParam } from '../routing/token-fields.js';
import * as routing from '../resources/routing/configuration.js';
import { tokenMatchersView, visitorTokenMatchersView } from './token-matchers-view.js';

/**
 * Token matchers (docs/call-configuration.md): rules that set tokens.
 * - token_matchers: on an inbound call, when the called number, the caller number or a token of
 *   the call's data matches (exact, prefix, or a bounded regex), `set_tokens` are merged into the
 *   call's data before routing (so buyer token filters see them).
 * - visitor_token_matchers: when a landing-page visitor's parameter (utm_source...) matches, the
 *   tokens are held with the ring pool number the visitor is given (POST
 *   /api/v1/ring_pools/{id}/visitor_number), and the visitor's call inherits them.
 */
export const MATCH_FIELDS = ['called_number', 'caller_number', 'token'] as const;

const matchValue = v.pipe(v.string('is not a string'), v.maxLength(200, 'is longer than 200 characters'), v.nonEmpty("can't be blank"));
const paramName = v.pipe(v.string('is not a string'), v.trim(), v.regex(/^[A-Za-z0-9_.-]{1,100}$/, 'is not a valid parameter name'));

/** A regex match value must be a safe pattern (shared/call-config/text-match.ts). */
function checkPattern(record: Record<string, unknown>): Record<string, string[]> {
  if (record.match_type !== 'regex' || typeof record.match_value !== 'string') return {};
  const problem = patternProblem(record.match_value);
  return problem ? { match_value: [problem] } : {};
}

const matcherFields = {
  name: optionalText,
  enabled: v.optional(booleanParam),
  match_type: v.optional(oneOf(MATCH_TYPES)),
  set_tokens: v.optional(tokenListParam),
};

export const tokenMatchers = defineResource({
  ...routing.tokenMatchers,
  ...tokenMatchersView,
  root: 'token_matcher',
  plural: 'token_matchers',
  createSchema: v.object({ ...matcherFields, match_field: oneOf(MATCH_FIELDS), match_token: v.optional(v.nullable(paramName)), match_value: matchValue, offer_id: optionalId }),
  updateSchema: v.object({ ...matcherFields, match_field: v.optional(oneOf(MATCH_FIELDS)), match_token: v.optional(v.nullable(paramName)), match_value: v.optional(matchValue), offer_id: optionalId }),
  defaults: { name: null, enabled: true, match_field: 'called_number', match_token: null, match_type: 'exact', match_value: null, set_tokens: null, offer_id: null },
  filters: { offer_id: { schema: idParam } },
  order: { values: ['id', 'name', 'created_at', 'updated_at'], default: 'id' },
  fulltextFields: ['name', 'match_value'],
  check: (record) => ({
    ...checkPattern(record),
    ...(record.match_field === 'token' && !record.match_token ? { match_token: ["can't be blank when match_field is token"] } : {}),
    ...(!record.set_tokens ? { set_tokens: ["can't be blank"] } : {}),
  }),
});

export const visitorTokenMatchers = defineResource({
  ...routing.visitorTokenMatchers,
  ...visitorTokenMatchersView,
  root: 'visitor_token_matcher',
  plural: 'visitor_token_matchers',
  createSchema: v.object({ ...matcherFields, param_name: paramName, match_value: matchValue, ring_pool_id: optionalId }),
  updateSchema: v.object({ ...matcherFields, param_name: v.optional(paramName), match_value: v.optional(matchValue), ring_pool_id: optionalId }),
  defaults: { name: null, enabled: true, param_name: null, match_type: 'exact', match_value: null, set_tokens: null, ring_pool_id: null },
  filters: { ring_pool_id: { schema: idParam } },
  order: { values: ['id', 'name', 'created_at', 'updated_at'], default: 'id' },
  fulltextFields: ['name', 'param_name', 'match_value'],
  check: (record) => ({ ...checkPattern(record), ...(!record.set_tokens ? { set_tokens: ["can't be blank"] } : {}) }),
});
