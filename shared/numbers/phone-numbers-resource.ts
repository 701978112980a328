import { validPhoneNumber } from '../phone-validation.js';
import * as v from 'valibot';
import { blankable, idParam } from '../http/param-schemas.js';
import { numberIndexAttributes } from './number-index.js';
import { defineResource } from '../resources/define.js';
import { optionalText, optionalId } from '../resources/field-schemas.js';
import * as routing from '../resources/routing/numbers.js';
import { phoneNumbersView } from './phone-numbers-view.js';

/**
 * Tracking numbers. Buying one (create) goes through the number provider port, deleting one
 * releases it; a number belongs to one offer and optionally a traffic source and a pool. The
 * number is unique across the deployment, and its global lookup item carries the routing fields
 * (`lookupAttributes`) so an incoming call is routed after one GetItem (shared/numbers/lookup.ts).
 * This declaration stays pure: the provider and the table are reached only from the behaviour.
 */

/**
 * A phone number in E.164, normalised and validated with libphonenumber's full metadata (a number
 * we buy or dial must match one of its country's per-type patterns: fixed line, mobile, toll
 * free...; shared/phone-validation.ts).
 */
export const e164Param = v.pipe(
  v.string('is not a phone number'),
  v.trim(),
  v.rawTransform(({ dataset, addIssue, NEVER }) => {
    const number = validPhoneNumber(dataset.value);
    if (number) return number;
    addIssue({ message: 'is not a phone number in E.164 (+ and country code)' });
    return NEVER;
  }),
);

function textMatching(pattern: RegExp, message: string) {
  return v.pipe(
    v.custom<unknown>((value) => (typeof value === 'string' || typeof value === 'number') && pattern.test(String(value).trim()), message),
    v.transform((value) => String(value).trim()),
  );
}

/** A North American area code (what carriers search by). */
export const areaCodeParam = textMatching(/^[2-9]\d\d$/, 'is not an area code (3 digits)');

/** Digits a number must contain, `*` for any one digit (the carriers' `Contains`). */
export const containsParam = textMatching(/^[0-9*]{2,10}$/, 'is not a pattern of 2 to 10 digits (* for any digit)');


export const phoneNumbers = defineResource({
  ...routing.phoneNumbers,
  ...phoneNumbersView,
  root: 'phone_number',
  plural: 'phone_numbers',
  // The hosted service's list root, which its clients read (docs/compatibility.md).
  listAlsoAs: 'numbers',
  // The reference lists no `new`: a number is bought, not drafted.
  createSchema: v.object({
    // A number from search; without one the first free number is bought (in `area_code` if given).
    number: v.optional(blankable(e164Param)),
    area_code: v.optional(blankable(areaCodeParam)),
    offer_id: idParam,
    traffic_source_id: optionalId,
    ring_pool_id: optionalId,
    name: optionalText,
  }),
  updateSchema: v.object({
    offer_id: v.optional(idParam),
    traffic_source_id: optionalId,
    ring_pool_id: optionalId,
    name: optionalText,
    number: v.optional(v.never('cannot be changed: buy another number and delete this one')),
  }),
  instructions: ['area_code'],
  defaults: { name: null, traffic_source_id: null, ring_pool_id: null },
  order: { values: ['id', 'number', 'name', 'created_at', 'updated_at'], default: 'id' },
  filters: {
    number: { schema: e164Param },
    offer_id: { schema: idParam },
    traffic_source_id: { schema: idParam },
    ring_pool_id: { schema: idParam },
  },
  fulltextFields: ['number', 'name'],
  serializers: ['phone_number', 'phone_number_grid'],
  unique: [{ field: 'number', scope: 'global' }],
  lookupAttributes: (record) => ({
    offer_id: record.offer_id ?? null,
    traffic_source_id: record.traffic_source_id ?? null,
    ring_pool_id: record.ring_pool_id ?? null,
  }),
  // Each number in its offer's and its pool's index, so a post reads only those (shared/numbers/number-index.ts).
  indexAttributes: numberIndexAttributes,
  behaviour: () => import('./phone-number-behaviour.js'),
});
