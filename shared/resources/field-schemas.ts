import * as v from 'valibot';
import { resolveTimeZone } from '../time-zones.js';
import { parseApiTime } from '../time.js';
import { blankable, idParam, integerParam } from '../http/param-schemas.js';

/**
 * Schemas for domain values that several resources share. Each parses once and stores the
 * canonical form, so routing reads values it never has to re-validate.
 */

/** An IANA or Rails time zone name, stored as the IANA name. */
export const timeZoneParam = v.pipe(
  v.string('is not a valid time zone'),
  v.transform((name) => resolveTimeZone(name) ?? ''),
  v.nonEmpty('is not a valid time zone'),
);

/** A time in any of the API's formats (UTC when it has no offset), stored as ISO 8601 UTC. */
export const timeParam = v.pipe(
  v.string('is not a valid time'),
  v.rawTransform(({ dataset, addIssue, NEVER }) => {
    const parsed = parseApiTime(dataset.value, 'UTC');
    if (!parsed) {
      addIssue({ message: 'is not a valid time' });
      return NEVER;
    }
    return parsed.toISOString();
  }),
);

/**
 * Local part, then a domain of dot-separated labels. Written so that no two parts can match
 * the same characters (labels exclude the dot), which keeps matching linear in the input.
 */
const EMAIL = /^[^\s@,]+@[^\s@,.]+(?:\.[^\s@,.]+)+$/;
/** RFC 5321's limit on a forward path. */
const EMAIL_MAX_CHARS = 254;

/** An e-mail address, trimmed and lower-cased. */
export const emailParam = v.pipe(
  v.string('is not a valid e-mail address'),
  v.trim(),
  v.maxLength(EMAIL_MAX_CHARS, `is too long (maximum is ${EMAIL_MAX_CHARS} characters)`),
  v.toLowerCase(),
  v.regex(EMAIL, 'is not a valid e-mail address'),
);

/** Optional text: trimmed, '' and null stored as null. */
export const optionalText = v.optional(blankable(v.pipe(v.string('is not a string'), v.trim())));

/** An optional record id, blank allowed. */
export const optionalId = v.optional(blankable(idParam));

/** An optional whole number of at least 0 (a count, seconds), blank allowed. */
export const optionalCount = v.optional(blankable(v.pipe(integerParam, v.minValue(0, 'must be greater than or equal to 0'))));

/** A list given as an array or a comma-separated string. */
export function listOf<TSchema extends v.GenericSchema>(item: TSchema, message: string) {
  return v.pipe(
    v.unknown(),
    v.transform((value) => (typeof value === 'string' ? value.split(',').map((part) => part.trim()).filter(Boolean) : value)),
    v.array(item, message),
  );
}

/** A list of record ids (array, comma string), blank allowed. */
export const idListParam = blankable(listOf(idParam, 'is not a list of ids'));

/**
 * Bounds of the id lists shown in full as `associations` (docs/resources.md, "Associations"):
 * buyers a group or a ping webhook names, and the short lists (groups, routers, integrations).
 */
export const MAX_ASSOCIATED_BUYERS = 1_000;
export const MAX_ASSOCIATED_RECORDS = 100;

/** A list of record ids of at most `max` (an association shown in full with every answer), blank allowed. */
export function idListUpTo(max: number) {
  return blankable(v.pipe(listOf(idParam, 'is not a list of ids'), v.maxLength(max, `must name at most ${max} records`)));
}
