import * as v from 'valibot';
import { validPhoneNumber } from '../phone-validation.js';

/**
 * The phone-or-SIP field of buyers, agents and key press flows, in a module of its own: the
 * modules using it need not load the buyer field rules (buyer-fields.ts), which a bundle cannot
 * drop once imported (their field list is computed at load).
 */

const SIP_URI = /^sip:[^\s@]+(@[^\s@]+)?$/i;

/**
 * A DID in E.164 (`+` and country code; normalised and validated with libphonenumber's full
 * metadata, as a number we dial: shared/phone-validation.ts) or a SIP endpoint starting with `sip:`.
 */
export const phoneOrSipParam = v.pipe(
  v.string('is not a phone number'),
  v.trim(),
  v.rawTransform(({ dataset, addIssue, NEVER }) => {
    const text = dataset.value;
    if (/^sip:/i.test(text)) {
      if (SIP_URI.test(text)) return text;
      addIssue({ message: 'is not a valid sip: URI' });
      return NEVER;
    }
    const number = validPhoneNumber(text);
    if (number) return number;
    addIssue({ message: 'is not a phone number in E.164 (+ and country code) or a sip: URI' });
    return NEVER;
  }),
);
