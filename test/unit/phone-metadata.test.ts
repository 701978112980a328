import { readFileSync } from 'node:fs';
import { parsePhoneNumberFromString as parseWithMax } from 'libphonenumber-js/max';
import { parsePhoneNumberFromString as parseWithMin } from 'libphonenumber-js/min';
import { brotliDecompressSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { parsePhone } from '../../shared/phone.js';
import { fullPhoneMetadataBrotli } from '../../shared/phone-metadata-full.js';
import { validPhoneNumber } from '../../shared/phone-validation.js';
// @ts-expect-error: a plain .mjs script without types (it writes the file checked here).
import { parseMetadata } from '../../scripts/phone-metadata.mjs';

const read = (path: string) => JSON.parse(readFileSync(new URL(path, import.meta.url), 'utf8')) as unknown;

/** What a parse tells: everything the service reads from a number (never its formatting). */
const answer = (phone: ReturnType<typeof parsePhone>) =>
  phone ? [phone.number, phone.country, phone.countryCallingCode, phone.nationalNumber, phone.ext, phone.isPossible(), phone.isValid()] : null;

/** A small deterministic generator, so the inputs are the same on every run. */
function* inputs(count: number): Generator<string> {
  let seed = 12345;
  const next = (below: number) => ((seed = (seed * 1103515245 + 12345) % 2 ** 31), seed % below);
  const digits = (length: number) => Array.from({ length }, () => next(10)).join('');
  const codes = ['1', '44', '49', '33', '61', '91', '52', '7', '86', '81', '39', '34', '55', '353', '971', '27', '234', '800', '882', '1242', '1869'];
  for (let index = 0; index < count; index++) {
    const length = 4 + next(12);
    const code = codes[next(codes.length)]!;
    yield [`+${code}${digits(length)}`, `+${code} (0) ${digits(3)} ${digits(length)}`, digits(length), `(${digits(3)}) ${digits(3)}-${digits(4)}`, `1${digits(10)}`, `+${digits(length)} ext. ${digits(3)}`][
      index % 6
    ]!;
  }
}

describe('the phone metadata (shared/phone-metadata.json)', () => {
  it('is what scripts/phone-metadata.mjs derives from the installed libphonenumber-js (run it after an upgrade)', () => {
    expect(read('../../shared/phone-metadata.json')).toEqual(parseMetadata(read('../../node_modules/libphonenumber-js/metadata.min.json')));
  });

  it('parses, and decides possible and valid numbers, exactly as libphonenumber-js/min does', () => {
    const differences: string[] = [];
    for (const text of inputs(6_000)) {
      for (const country of [undefined, 'US'] as const) {
        const ours = JSON.stringify(answer(parsePhone(text, country)));
        const min = JSON.stringify(answer(country ? parseWithMin(text, country) : parseWithMin(text)));
        if (ours !== min) differences.push(`${text} (${country ?? 'international'}): ${ours} vs ${min}`);
      }
    }
    expect(differences).toEqual([]);
  });

  it('still tells valid from invalid and reads national numbers as North American', () => {
    expect(parsePhone('+14155552671')?.isValid()).toBe(true);
    expect(parsePhone('+1415555267')?.isValid()).toBe(false);
    expect(parsePhone('(415) 555-2671', 'US')?.number).toBe('+14155552671');
    expect(parsePhone('+44 (0) 20 7946 0958')?.number).toBe('+442079460958');
    expect(parsePhone('not a number')).toBeUndefined();
  });
});

describe('the full phone metadata (shared/phone-metadata-full.ts, for the numbers we dial, buy or store)', () => {
  it('is what scripts/phone-metadata.mjs derives from the installed libphonenumber-js max metadata (run it after an upgrade)', () => {
    const shipped = JSON.parse(brotliDecompressSync(Buffer.from(fullPhoneMetadataBrotli, 'base64')).toString('utf8')) as unknown;
    expect(shipped).toEqual(parseMetadata(read('../../node_modules/libphonenumber-js/metadata.max.json')));
  });

  it('validates numbers exactly as libphonenumber-js/max does, refusing some the min metadata accepts', () => {
    const differences: string[] = [];
    let refusedByFullOnly = 0;
    for (const text of inputs(6_000)) {
      const withMax = parseWithMax(text);
      const expected = text.startsWith('+') && withMax?.isValid() ? withMax.number : undefined;
      if (validPhoneNumber(text) !== expected) differences.push(`${text}: ${validPhoneNumber(text)} vs ${expected}`);
      if (text.startsWith('+') && !expected && parseWithMin(text)?.isValid()) refusedByFullOnly++;
    }
    expect(differences).toEqual([]);
    expect(refusedByFullOnly).toBeGreaterThan(0);
  });
});
