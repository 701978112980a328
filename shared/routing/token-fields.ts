import * as v from 'valibot';
import { blankable } from '../http/param-schemas.js';
import { formatTokenFilter, parseTokenFilterList, parseTokenList } from './token-filters.js';

/**
 * Token filter and token list fields (buyers, conversions, call configuration, schedules), apart
 * from the other shared field schemas (field-schemas.ts): their parser (routing/token-filters.ts)
 * is bundled only where a resource has such a field.
 */

/** A record token filter list, stored as canonical `key:value` strings (`age:>=21`). */
export const tokenFilterListParam = blankable(
  v.pipe(
    v.unknown(),
    v.rawTransform(({ dataset, addIssue, NEVER }) => {
      const parsed = parseTokenFilterList(dataset.value);
      if (!parsed.ok) {
        addIssue({ message: `is not a valid list of filters: ${parsed.errors.join('; ')}` });
        return NEVER;
      }
      return parsed.filters.map(formatTokenFilter);
    }),
  ),
);

/** A comma-separated `key:value` token list (no operators), stored as given but normalised. */
export const tokenListParam = blankable(
  v.pipe(
    v.unknown(),
    v.rawTransform(({ dataset, addIssue, NEVER }) => {
      const parsed = parseTokenList(dataset.value);
      if (!parsed.ok) {
        addIssue({ message: `is not a valid token list: ${parsed.errors.join('; ')}` });
        return NEVER;
      }
      return Object.entries(parsed.tokens)
        .map(([key, value]) => `${key}:${value}`)
        .join(',');
    }),
  ),
);
