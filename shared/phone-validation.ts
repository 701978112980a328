import { type MetadataJson, parsePhoneNumberFromString } from 'libphonenumber-js/core';
import { brotliDecompressSync } from 'node:zlib';
import { fullPhoneMetadataBrotli } from './phone-metadata-full.js';
import { normalizeCallerNumber } from './phone.js';

/**
 * Validation of the numbers we dial, buy or store (buyers' and agents' targets, tracking numbers,
 * contacts, numbers a schedule calls) with libphonenumber's FULL metadata (issue 32): a number is
 * valid when it matches one of its country's per-type patterns (fixed line, mobile, toll free...),
 * as `libphonenumber-js/max` decides. The reduced metadata of shared/phone.ts, which still parses
 * caller numbers, also accepts numbers in ranges no type is assigned to (8.5% of random numbers
 * the full metadata refuses), which a carrier would reject.
 *
 * The metadata ships compressed (shared/phone-metadata-full.ts, scripts/phone-metadata.mjs): 35 KB
 * of the bundle instead of 106 KB, decoded on the first validation (about 3 ms), not at module load.
 */
let metadata: MetadataJson | undefined;

function fullMetadata(): MetadataJson {
  metadata ??= JSON.parse(brotliDecompressSync(Buffer.from(fullPhoneMetadataBrotli, 'base64')).toString('utf8')) as MetadataJson;
  return metadata;
}

/** The number in E.164 when `text` is a valid number in international form (`+` and country code); undefined otherwise. */
export function validPhoneNumber(text: string): string | undefined {
  if (!text.startsWith('+')) return undefined;
  const phone = parsePhoneNumberFromString(text, fullMetadata());
  return phone?.isValid() ? (phone.number as string) : undefined;
}

/** A number in any shape normalizeCallerNumber reads (national numbers as North American), in E.164 when the full metadata finds it valid. */
export function validStoredNumber(text: unknown): string | undefined {
  const normalized = normalizeCallerNumber(text);
  return normalized === undefined ? undefined : validPhoneNumber(normalized);
}
