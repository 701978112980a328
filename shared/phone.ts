import { type CountryCode, type MetadataJson, type PhoneNumber, parsePhoneNumberFromString } from 'libphonenumber-js/core';
import metadata from './phone-metadata.json';

/**
 * Parses a phone number with libphonenumber's `min` metadata less its formatting rules
 * (shared/phone-metadata.json, written by scripts/phone-metadata.mjs): the same answers as
 * `libphonenumber-js/min` for parsing, isPossible() and isValid() in 33 KB instead of 83 KB. Only
 * format() would differ; nothing here formats numbers. Undefined when the text is no number.
 */
export function parsePhone(text: string, defaultCountry?: CountryCode): PhoneNumber | undefined {
  return defaultCountry ? parsePhoneNumberFromString(text, defaultCountry, metadata as MetadataJson) : parsePhoneNumberFromString(text, metadata as MetadataJson);
}

/**
 * Caller numbers arrive in every shape (`+14155552671`, `4155552671`, `(415) 555-2671`); routing,
 * the blacklist and reservations compare them in one form, E.164. Numbers without a country
 * code are read as North American, the home of this API's existing clients. Pure.
 *
 * The `min` metadata (parsePhone above; `max` would be ~5x its size): a possible number is
 * decided by the country's possible lengths, which `min` holds whole, and parsing (national
 * prefixes, country codes) is the same; `max` only adds the per-type patterns that isValid()
 * uses. The two gave the same answer on 200,000 random inputs (docs/operations.md).
 */
export function normalizeCallerNumber(text: unknown, defaultCountry: 'US' = 'US'): string | undefined {
  if (typeof text !== 'string' && typeof text !== 'number') return undefined;
  const raw = String(text).trim();
  if (!raw) return undefined;
  const parsed = raw.startsWith('+') ? parsePhone(raw) : parsePhone(raw, defaultCountry);
  return parsed?.isPossible() ? (parsed.number as string) : undefined;
}
