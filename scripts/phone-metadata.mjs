// Writes shared/phone-metadata.json (`node scripts/phone-metadata.mjs`): libphonenumber's `min`
// metadata without the national formatting rules (index 4 of each numbering plan), which only
// format() and AsYouType read. Parsing, isPossible() and isValid() give the same answers
// (test/unit/phone-metadata.test.ts checks the file is up to date with the installed
// libphonenumber-js and compares answers with `min`); the file is 33 KB instead of 83 KB in every
// function that reads a phone number (docs/operations.md, "Lambda bundles").
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const FORMATS = 4;

/** The `min` metadata with every numbering plan's formats emptied. */
export function parseMetadata(min) {
  const strip = (plans) => Object.fromEntries(Object.entries(plans ?? {}).map(([key, plan]) => [key, plan.map((value, index) => (index === FORMATS ? [] : value))]));
  return { ...min, countries: strip(min.countries), nonGeographic: strip(min.nonGeographic) };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const min = JSON.parse(readFileSync(new URL('../node_modules/libphonenumber-js/metadata.min.json', import.meta.url), 'utf8'));
  writeFileSync(new URL('../shared/phone-metadata.json', import.meta.url), `${JSON.stringify(parseMetadata(min))}\n`);
}
