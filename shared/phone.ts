import { parsePhoneNumberFromString } from 'libphonenumber-js/min';

/**
 * Caller numbers arrive in every shape (`+14155552671`, `4155552671`, `(415) 555-2671`); routing,
 * the blacklist and reservations compare them in one form, E.164. Numbers without a country
 * code are read as North American, the home of this API's existing clients. Pure.
 *
 * The `min` metadata (~3x smaller than `max`, which every caller-facing function would otherwise
 * bundle): a possible number is decided by the country's possible lengths, which `min` holds
 * whole, and parsing (national prefixes, country codes) is the same; `max` only adds the
 * per-type patterns that isValid() uses. The two gave the same answer on 200,000 random inputs
 * (docs/operations.md). Stored numbers a client declares (buyer DIDs, tracking numbers) are still
 * validated with `max` in their field schemas.
 */
export function normalizeCallerNumber(text: unknown, defaultCountry: 'US' = 'US'): string | undefined {
  if (typeof text !== 'string' && typeof text !== 'number') return undefined;
  const raw = String(text).trim();
  if (!raw) return undefined;
  const parsed = raw.startsWith('+') ? parsePhoneNumberFromString(raw) : parsePhoneNumberFromString(raw, defaultCountry);
  return parsed?.isPossible() ? (parsed.number as string) : undefined;
}
