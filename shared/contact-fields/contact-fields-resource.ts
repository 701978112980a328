import * as v from 'valibot';
import { blankable, booleanParam, idParam, integerParam, oneOf, presentString } from '../http/param-schemas.js';
import { normalizeCallerNumber } from '../phone.js';
import { validStoredNumber } from '../phone-validation.js';
import { checkFieldDeclaration, FIELD_LIMITS, FIELD_TYPES } from './field-types.js';
import { FIELD_OWNER } from './value-owner.js';
import { defineResource } from '../resources/define.js';
import { listOf, optionalId } from '../resources/field-schemas.js';
import * as routing from '../resources/routing/contacts.js';
import { contactFieldsView, contactFieldValuesView, contactFieldViewsView } from './contact-fields-view.js';

/**
 * Custom fields on contacts and leads (docs/resources.md, "Contact fields"):
 * - contact_fields: the declarations (key, type, options, default), unique key per company.
 * - contact_field_values: one value of one field for one contact (a caller number) or one lead,
 *   checked against the field's type (shared/contact-fields/field-types.ts), one per field and
 *   owner (a second is a 409; update the first instead).
 * - contact_field_views: named, ordered selections of fields to show contacts or leads with.
 * Their reads and effects live in shared/contact-fields/*-behaviour.ts.
 */
export const FIELD_APPLIES_TO = ['contacts', 'leads', 'both'] as const;
export const VIEW_APPLIES_TO = ['contacts', 'leads'] as const;

const bounded = (max: number) => v.pipe(v.string('is not a string'), v.trim(), v.maxLength(max, `is too long (maximum is ${max} characters)`));
const name = v.pipe(presentString, v.maxLength(100, 'is too long (maximum is 100 characters)'));
/** A token-like key (`policy_number`): what integrations and templates name the field by. */
const fieldKey = v.pipe(bounded(64), v.regex(/^[a-z][a-z0-9_]*$/, 'must start with a lower-case letter and hold only lower-case letters, digits and underscores'));
const options = v.optional(
  blankable(
    v.pipe(
      listOf(bounded(FIELD_LIMITS.optionChars), 'is not a list of options'),
      v.maxLength(FIELD_LIMITS.options, `has too many options (maximum is ${FIELD_LIMITS.options})`),
      v.check((items) => items.every((item) => item.length > 0), "can't hold a blank option"),
    ),
  ),
);
/** Checked against the declared type by the resource's check (the type may be sent with it or stored). */
const defaultValue = v.optional(v.unknown());
const sortableOrder = v.optional(v.pipe(integerParam, v.minValue(0, 'must be greater than or equal to 0'), v.maxValue(1_000_000, 'must be less than or equal to 1000000')));
const description = v.optional(blankable(bounded(1_000)));

const declarationFields = {
  options,
  required: v.optional(booleanParam),
  applies_to: v.optional(oneOf(FIELD_APPLIES_TO)),
  default_value: defaultValue,
  description,
  sortable_order: sortableOrder,
};

export const contactFields = defineResource({
  ...routing.contactFields,
  ...contactFieldsView,
  root: 'contact_field',
  plural: 'contact_fields',
  createSchema: v.object({ name, key: fieldKey, field_type: oneOf(FIELD_TYPES), ...declarationFields }),
  updateSchema: v.object({ name: v.optional(name), key: v.optional(fieldKey), field_type: v.optional(oneOf(FIELD_TYPES)), ...declarationFields }),
  defaults: { name: null, key: null, field_type: 'string', options: null, required: false, applies_to: 'both', default_value: null, description: null, sortable_order: 0 },
  filters: { field_type: { schema: oneOf(FIELD_TYPES) }, applies_to: { schema: oneOf(FIELD_APPLIES_TO) } },
  order: { values: ['id', 'name', 'key', 'sortable_order', 'created_at', 'updated_at'], default: 'id' },
  fulltextFields: ['name', 'key', 'description'],
  unique: [{ field: 'key', scope: 'company' }],
  check: (record) =>
    checkFieldDeclaration({ field_type: record.field_type as (typeof FIELD_TYPES)[number], options: (record.options as string[] | null) ?? null, default_value: record.default_value }).errors,
  behaviour: () => import('./field-behaviour.js'),
});

/** A caller number in any shape, as E.164 (the contact's id), valid under the full metadata: the value stores a contact. */
const contactNumber = v.pipe(
  v.union([v.string(), v.number()], 'is not a phone number'),
  v.transform((value) => validStoredNumber(String(value).slice(0, 32)) ?? ''),
  v.nonEmpty('is not a phone number'),
);

/** The contact a filter names: any number the service could have seen (a caller's, only possible), as E.164. */
const contactNumberFilter = v.pipe(
  v.union([v.string(), v.number()], 'is not a phone number'),
  v.transform((value) => normalizeCallerNumber(String(value).slice(0, 32)) ?? ''),
  v.nonEmpty('is not a phone number'),
);

export const contactFieldValues = defineResource({
  ...routing.contactFieldValues,
  ...contactFieldValuesView,
  root: 'contact_field_value',
  plural: 'contact_field_values',
  createSchema: v.object({ contact_field_id: idParam, contact_id: v.optional(blankable(contactNumber)), lead_id: optionalId, value: v.optional(v.unknown()) }),
  // The field and owner stay; the value changes (checked against the field's type as it is now).
  updateSchema: v.object({ value: v.optional(v.unknown()) }),
  defaults: { contact_field_id: null, contact_id: null, lead_id: null, value: null },
  filters: { contact_field_id: { schema: idParam }, lead_id: { schema: idParam }, contact_id: { schema: contactNumberFilter } },
  order: { values: ['id', 'created_at', 'updated_at'], default: 'id' },
  // One value per field and owner: `field_owner` (`<field id>:contact:<number>` or `<field id>:lead:<id>`) is set on create.
  unique: [{ field: FIELD_OWNER, scope: 'company' }],
  behaviour: () => import('./value-behaviour.js'),
});

const viewFieldIds = v.pipe(
  listOf(idParam, 'is not a list of ids'),
  v.maxLength(FIELD_LIMITS.options, `has too many fields (maximum is ${FIELD_LIMITS.options})`),
  v.check((ids) => new Set(ids).size === ids.length, 'lists a field twice'),
);

export const contactFieldViews = defineResource({
  ...routing.contactFieldViews,
  ...contactFieldViewsView,
  root: 'contact_field_view',
  plural: 'contact_field_views',
  createSchema: v.object({ name, contact_field_ids: viewFieldIds, applies_to: v.optional(oneOf(VIEW_APPLIES_TO)), is_default: v.optional(booleanParam), description }),
  updateSchema: v.object({ name: v.optional(name), contact_field_ids: v.optional(viewFieldIds), applies_to: v.optional(oneOf(VIEW_APPLIES_TO)), is_default: v.optional(booleanParam), description }),
  defaults: { name: null, contact_field_ids: [], applies_to: 'contacts', is_default: false, description: null },
  filters: { applies_to: { schema: oneOf(VIEW_APPLIES_TO) }, is_default: { schema: booleanParam } },
  order: { values: ['id', 'name', 'created_at', 'updated_at'], default: 'id' },
  fulltextFields: ['name', 'description'],
  behaviour: () => import('./view-behaviour.js'),
});
