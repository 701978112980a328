// Writes libphonenumber's metadata for the service (`node scripts/phone-metadata.mjs`), without the
// national formatting rules (index 4 of each numbering plan), which only format() and AsYouType
// read (nothing here formats numbers):
// - shared/phone-metadata.json: the `min` metadata, for parsing caller numbers (33 KB instead of
//   83 KB in every function that reads a phone number; shared/phone.ts);
// - shared/phone-metadata-full.ts: the full (`max`) metadata, for validating the numbers we dial,
//   buy or store (shared/phone-validation.ts), brotli-compressed and base64-encoded: 35 KB instead
//   of 106 KB in the functions that validate, decoded on the first validation rather than at
//   module load (docs/operations.md, "Lambda bundles").
// Parsing, isPossible() and isValid() give the same answers as libphonenumber-js/min and /max
// (test/unit/phone-metadata.test.ts checks both files are up to date with the installed
// libphonenumber-js and compares answers).
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, constants } from 'node:zlib';

const FORMATS = 4;

/** The metadata with every numbering plan's formats emptied. */
export function parseMetadata(min) {
  const strip = (plans) => Object.fromEntries(Object.entries(plans ?? {}).map(([key, plan]) => [key, plan.map((value, index) => (index === FORMATS ? [] : value))]));
  return { ...min, countries: strip(min.countries), nonGeographic: strip(min.nonGeographic) };
}

/** The TypeScript module holding the full metadata, compressed. */
export function fullMetadataModule(max) {
  const json = JSON.stringify(parseMetadata(max));
  const compressed = brotliCompressSync(json, { params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: json.length } });
  return [
    '// Written by scripts/phone-metadata.mjs from libphonenumber-js/metadata.max.json (formats removed): do not edit.',
    '// Brotli-compressed JSON, base64: decoded by shared/phone-validation.ts on its first use.',
    `export const fullPhoneMetadataBrotli = '${compressed.toString('base64')}';`,
    '',
  ].join('\n');
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const read = (name) => JSON.parse(readFileSync(new URL(`../node_modules/libphonenumber-js/${name}`, import.meta.url), 'utf8'));
  writeFileSync(new URL('../shared/phone-metadata.json', import.meta.url), `${JSON.stringify(parseMetadata(read('metadata.min.json')))}\n`);
  writeFileSync(new URL('../shared/phone-metadata-full.ts', import.meta.url), fullMetadataModule(read('metadata.max.json')));
}
