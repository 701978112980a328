import * as v from 'valibot';
import { normalizeCallerNumber } from '../phone.js';
import { idParam, oneOf, presentString } from '../http/param-schemas.js';
import { DATA_TYPES } from '../ports/data-provider.js';
import { defineResource } from '../resources/define.js';
import { listOf, optionalId, optionalText } from '../resources/field-schemas.js';
import * as routing from '../resources/routing/contacts.js';
import { dataAppendGroupsView, dataAppendsView } from './data-appends-view.js';

/**
 * Enrichment (docs/resources.md, "Data appends and contact imports"):
 * - data_append_groups: named sets of data types, for requests that ask for the same ones.
 * - data_appends: one record per request for data about a caller number (also made by
 *   POST /api/v1/data_append): the data provider is asked just before the write, the answer and
 *   the charge are stored on the record and each type's price is added to charge_rollups
 *   (shared/data-appends/behaviour.ts). Only `notes` can change afterwards.
 */
const dataTypeList = v.pipe(
  listOf(oneOf(DATA_TYPES), `is not a list of data types (${DATA_TYPES.join(', ')})`),
  v.transform((types) => [...new Set(types)]),
);

const callerNumberParam = v.pipe(
  v.union([v.string(), v.number()], 'is not a phone number'),
  v.transform((value) => normalizeCallerNumber(String(value).slice(0, 40)) ?? ''),
  v.nonEmpty('is not a phone number'),
);

const readOnly = (why: string) => v.optional(v.never(`cannot be changed: ${why}`));

export const dataAppendGroups = defineResource({
  ...routing.dataAppendGroups,
  ...dataAppendGroupsView,
  root: 'data_append_group',
  plural: 'data_append_groups',
  createSchema: v.object({ name: presentString, description: optionalText, data_types: v.pipe(dataTypeList, v.minLength(1, "can't be blank")) }),
  updateSchema: v.object({ name: v.optional(presentString), description: optionalText, data_types: v.optional(v.pipe(dataTypeList, v.minLength(1, "can't be blank"))) }),
  defaults: { name: null, description: null, data_types: [] },
  order: { values: ['id', 'name', 'created_at', 'updated_at'], default: 'id' },
  fulltextFields: ['name', 'description'],
  unique: [{ field: 'name', scope: 'company' }],
});

export const dataAppends = defineResource({
  ...routing.dataAppends,
  ...dataAppendsView,
  root: 'data_append',
  plural: 'data_appends',
  createSchema: v.object({
    caller_number: callerNumberParam,
    data_types: v.optional(dataTypeList),
    data_append_group_id: optionalId,
    notes: optionalText,
  }),
  updateSchema: v.object({
    notes: optionalText,
    ...Object.fromEntries(['caller_number', 'data_types', 'data_append_group_id', 'provider', 'result', 'charge', 'charges'].map((field) => [field, readOnly('make another data append')])),
  }),
  defaults: { caller_number: null, data_types: [], data_append_group_id: null, notes: null, provider: null, result: null, charge: 0, charges: {} },
  filters: { caller_number: { schema: callerNumberParam }, data_append_group_id: { schema: idParam } },
  order: { values: ['id', 'caller_number', 'charge', 'created_at', 'updated_at'], default: 'id' },
  fulltextFields: ['caller_number', 'notes'],
  check: (record): Record<string, string[]> =>
    (record.data_types as unknown[] | null)?.length || record.data_append_group_id ? {} : { data_types: ["can't be blank unless data_append_group_id names a group"] },
  behaviour: () => import('./behaviour.js'),
});
