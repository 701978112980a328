import * as v from 'valibot';
import { numberProvider } from '../../shared/adapters/index.js';
import { blankable, booleanParam, integerParam } from '../../shared/http/param-schemas.js';
import type { Operation } from '../../shared/http/request.js';
import { validate } from '../../shared/http/validation.js';
import { searchFreeNumbers } from '../../shared/numbers/search.js';
import { areaCodeParam, containsParam } from '../../shared/numbers/phone-numbers-resource.js';

export const SEARCH_DEFAULT_PER_PAGE = 25;
export const SEARCH_MAX_PER_PAGE = 50;

export const searchSchema = v.object({
  area_code: v.optional(blankable(areaCodeParam)),
  contains: v.optional(blankable(containsParam)),
  per_page: v.optional(
    v.pipe(integerParam, v.minValue(1, 'must be at least 1'), v.maxValue(SEARCH_MAX_PER_PAGE, `must be at most ${SEARCH_MAX_PER_PAGE}`)),
    SEARCH_DEFAULT_PER_PAGE,
  ),
  root: v.optional(booleanParam, true),
});

/**
 * `GET /api/v1/phone_numbers/search`: numbers the provider offers that no company of this
 * deployment holds, as `{ number }` records under `phone_numbers` (bare with `root=false`).
 */
export const searchPhoneNumbers: Operation = async (request) => {
  const params = validate(searchSchema, request.params);
  const numbers = await searchFreeNumbers(numberProvider(), {
    area_code: params.area_code ?? undefined,
    contains: params.contains ?? undefined,
    limit: params.per_page,
  });
  return {
    kind: 'list',
    plural: 'phone_numbers',
    records: numbers.map((number) => ({ number })),
    metadata: { per_page: params.per_page, total_count: numbers.length },
    bare: !params.root,
  };
};
