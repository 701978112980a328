import * as v from 'valibot';
import { blankable, booleanParam, idParam, integerParam } from '../http/param-schemas.js';
import { US_STATE_CODES } from './us-states.js';
import { defineResource } from '../resources/define.js';
import { optionalId, optionalText } from '../resources/field-schemas.js';
import * as routing from '../resources/routing/configuration.js';
import { stateCallLimitsView } from './state-call-limits-view.js';

/**
 * State call limits (docs/call-configuration.md): at most `concurrent_limit` calls in progress
 * and `daily_limit` calls a UTC day from callers in `state`, for one offer or (blank) all.
 * Enforced when a call starts (shared/call-config/state-limit-counters.ts); a call over a limit
 * ends blocked. The reference serves list, new, create and show only.
 */
const limit = v.optional(blankable(v.pipe(integerParam, v.minValue(0, 'must be greater than or equal to 0'), v.maxValue(1_000_000, 'must be less than or equal to 1000000'))));

const stateParam = v.pipe(
  v.string('is not a string'),
  v.trim(),
  v.toUpperCase(),
  v.check((code) => US_STATE_CODES.includes(code), 'is not a US state code (e.g. CA)'),
);

export const stateCallLimits = defineResource({
  ...routing.stateCallLimits,
  ...stateCallLimitsView,
  root: 'state_call_limit',
  plural: 'state_call_limits',
  createSchema: v.object({ name: optionalText, state: stateParam, offer_id: optionalId, concurrent_limit: limit, daily_limit: limit, enabled: v.optional(booleanParam) }),
  updateSchema: v.object({}),
  defaults: { name: null, state: null, offer_id: null, concurrent_limit: null, daily_limit: null, enabled: true },
  filters: { offer_id: { schema: idParam }, state: { schema: stateParam } },
  order: { values: ['id', 'state', 'created_at'], default: 'id' },
  fulltextFields: ['name', 'state'],
  check: (record): Record<string, string[]> =>
    record.concurrent_limit === null && record.daily_limit === null ? { concurrent_limit: ['or daily_limit must be given'] } : {},
});
