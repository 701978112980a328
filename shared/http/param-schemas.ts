import * as v from 'valibot';
import { INPUT_LIMITS } from './input-limits.js';

/**
 * Parameter schemas shared by every endpoint. Form and query values arrive as strings, JSON as
 * typed values; each schema accepts both and outputs one type, with the reference's wording for
 * failures. Schemas that check with code of their own carry a `v.metadata` entry saying what they
 * accept in JSON Schema terms, which the OpenAPI document reads (shared/http/openapi/).
 */

const TRUE_WORDS = ['1', 'true', 'yes', 'on'];
const FALSE_WORDS = ['0', 'false', 'no', 'off'];

/** Parses the reference's boolean words; anything else is undefined (not a boolean). */
export function parseBooleanWord(value: unknown): boolean | undefined {
  if (typeof value === 'boolean') return value;
  if (value === 1 || value === 0) return value === 1;
  if (typeof value !== 'string') return undefined;
  if (TRUE_WORDS.includes(value)) return true;
  if (FALSE_WORDS.includes(value)) return false;
  return undefined;
}

/** Accepts exactly 1, true, yes, on, 0, false, no, off (and JSON booleans). */
export const booleanParam = v.pipe(
  v.custom<unknown>((value) => parseBooleanWord(value) !== undefined, 'is not a valid boolean (use 1, true, yes, on, 0, false, no or off)'),
  v.metadata({ type: 'boolean', description: `Also ${[...TRUE_WORDS, ...FALSE_WORDS].join(', ')}.` }),
  v.transform((value) => parseBooleanWord(value) as boolean),
);

const INTEGER_TEXT = /^-?\d+$/;

/** A whole number, given as a JSON number or a string of digits. */
export const integerParam = v.pipe(
  v.custom<unknown>(
    (value) =>
      (typeof value === 'number' && Number.isSafeInteger(value)) ||
      (typeof value === 'string' && INTEGER_TEXT.test(value.trim()) && Number.isSafeInteger(Number(value))),
    'is not an integer',
  ),
  v.metadata({ type: 'integer' }),
  v.transform((value) => Number(value)),
);

/** A record id: a positive whole number. */
export const idParam = v.pipe(integerParam, v.minValue(1, 'is not a valid id'));

const DECIMAL_TEXT = /^-?(\d+(\.\d*)?|\.\d+)$/;

/**
 * A decimal number, given as a JSON number or a numeric string, within ±INPUT_LIMITS.numberMagnitude
 * so that amounts in cents stay safe integers (`1e308` and 23-digit strings are refused).
 */
export const decimalParam = v.pipe(
  v.custom<unknown>(
    (value) => (typeof value === 'number' && Number.isFinite(value)) || (typeof value === 'string' && value.length <= 40 && DECIMAL_TEXT.test(value.trim())),
    'is not a number',
  ),
  v.metadata({ type: 'number', minimum: -INPUT_LIMITS.numberMagnitude, maximum: INPUT_LIMITS.numberMagnitude }),
  v.transform((value) => Number(value)),
  v.check((value) => Math.abs(value) <= INPUT_LIMITS.numberMagnitude, `must be between -${INPUT_LIMITS.numberMagnitude} and ${INPUT_LIMITS.numberMagnitude}`),
);

/** Is `value` an absolute http(s) URL with a host? */
export function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname.length > 0;
  } catch {
    return false;
  }
}

/** An absolute http(s) URL. */
export const httpUrlParam = v.pipe(v.string('is not a valid URL'), v.trim(), v.check(isHttpUrl, 'is not a valid URL'), v.metadata({ format: 'uri' }));

/** One of a fixed list of strings. */
export function oneOf<const T extends readonly [string, ...string[]]>(values: T) {
  return v.picklist(values, `is not included in the list (${values.join(', ')})`);
}

/** A value that may also be blank: '' and null both become null; anything else must pass `schema`. */
export function blankable<TSchema extends v.GenericSchema>(schema: TSchema) {
  return v.pipe(
    v.unknown(),
    v.transform((value) => (value === '' ? null : value)),
    v.nullable(schema),
  );
}

/** A non-blank string (trimmed). */
export const presentString = v.pipe(v.string('is not a string'), v.trim(), v.nonEmpty("can't be blank"));

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * A hash: an object, or a JSON string holding one (form posts send hashes either way). Arrays
 * are refused here because valibot's object schemas would take them.
 */
export function jsonObject<TSchema extends v.GenericSchema>(schema: TSchema, message: string) {
  return v.pipe(
    v.unknown(),
    v.transform((value) => {
      if (typeof value !== 'string') return value;
      try {
        return JSON.parse(value) as unknown;
      } catch {
        return value;
      }
    }),
    v.check(isPlainObject, message),
    schema,
  );
}
