import { parsePhoneNumberFromString } from 'libphonenumber-js/max';

/**
 * Caller numbers arrive in every shape (`+14155552671`, `4155552671`, `(415) 555-2671`); routing,
 * the blacklist and reservations compare them in one form, E.164. Numbers without a country
 * code are read as North American, the home of this API's existing clients. Pure.
 */
export function normalizeCallerNumber(text: unknown, defaultCountry: 'US' = 'US'): string | undefined {
  if (typeof text !== 'string' && typeof text !== 'number') return undefined;
  const raw = String(text).trim();
  if (!raw) return undefined;
  const parsed = raw.startsWith('+') ? parsePhoneNumberFromString(raw) : parsePhoneNumberFromString(raw, defaultCountry);
  return parsed?.isPossible() ? (parsed.number as string) : undefined;
}
