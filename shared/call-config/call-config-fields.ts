import * as v from 'valibot';
import { dataProblems } from '../calls/call-limits.js';
import { blankable, integerParam, jsonObject } from '../http/param-schemas.js';
import { listOf } from '../resources/field-schemas.js';

/** Field schemas the IVR and key press resources share (docs/call-configuration.md). */

/** Keys a caller can press: 0-9, * and #, at most `max` of them. */
export const digitsParam = (max: number) =>
  v.pipe(
    v.union([v.string(), v.number()], 'is not a string of keys'),
    v.transform(String),
    v.trim(),
    v.regex(new RegExp(`^[0-9*#]{1,${max}}$`), `must be 1 to ${max} of the keys 0-9, * and #`),
  );

/** A whole number between `low` and `high`. */
export const rangeParam = (low: number, high: number) =>
  v.pipe(integerParam, v.minValue(low, `must be between ${low} and ${high}`), v.maxValue(high, `must be between ${low} and ${high}`));

/** Text said to the caller (<Say>): at most 1000 characters. */
export const spokenText = v.optional(blankable(v.pipe(v.string('is not a string'), v.trim(), v.maxLength(1000, 'is too long (maximum is 1000 characters)'))));

/** At most this many tokens in one assignment: the call's data stays far below its own limits. */
export const MAX_ASSIGNED_TOKENS = 20;

/**
 * Token assignments merged into a call's data (`{"plan": "gold"}`): plain values, at most
 * MAX_ASSIGNED_TOKENS keys, each within the call data limits (shared/calls/call-limits.ts).
 */
export const tokenValuesParam = v.optional(
  blankable(
    jsonObject(
      v.pipe(
        v.record(v.string(), v.union([v.string(), v.number(), v.boolean()], 'is not a plain value (string, number or boolean)')),
        v.check((tokens) => Object.keys(tokens).length <= MAX_ASSIGNED_TOKENS, `has more than ${MAX_ASSIGNED_TOKENS} tokens`),
        v.rawCheck(({ dataset, addIssue }) => {
          if (dataset.typed) for (const message of dataProblems(dataset.value)) addIssue({ message });
        }),
      ),
      'is not a hash of token names and values',
    ),
  ),
);

/** Speech keywords: up to 20 words or phrases of up to 100 characters, stored lower-case. */
export const keywordListParam = v.optional(
  blankable(
    v.pipe(
      listOf(v.pipe(v.string('is not a string'), v.trim(), v.toLowerCase(), v.nonEmpty("can't be blank"), v.maxLength(100, 'is too long (maximum is 100 characters)')), 'is not a list of keywords'),
      v.maxLength(20, 'has more than 20 keywords'),
    ),
  ),
);
