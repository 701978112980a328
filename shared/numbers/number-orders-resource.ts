import * as v from 'valibot';
import { blankable, idParam, integerParam, oneOf } from '../http/param-schemas.js';
import { defineResource } from '../resources/define.js';
import { optionalId, optionalText } from '../resources/field-schemas.js';
import { areaCodeParam } from './phone-numbers-resource.js';
import * as routing from '../resources/routing/numbers.js';
import { numberOrderPrefixesView, numberOrdersView } from './number-orders-view.js';

/**
 * Number orders (docs/call-configuration.md, "Sounds, answering machines and number orders"):
 * several tracking numbers bought at once, by area code or prefix, each through the same path as
 * POST /api/v1/phone_numbers (shared/numbers/number-order-fill.ts). North American numbers only
 * (+1): what the carriers' searches and the local number range take.
 */

/** The national digits a number starts with: 3 (an area code) to 7 (area code, exchange and a digit). */
export const prefixParam = v.pipe(
  v.custom<unknown>((value) => (typeof value === 'string' || typeof value === 'number') && /^[2-9]\d{2,6}$/.test(String(value).trim()), 'is not a prefix (3 to 7 digits after +1, the first 2-9)'),
  v.transform((value) => String(value).trim()),
);

export const PREFIX_COUNTRIES = ['US', 'CA'] as const;

export const numberOrderPrefixes = defineResource({
  ...routing.numberOrderPrefixes,
  ...numberOrderPrefixesView,
  root: 'number_order_prefix',
  plural: 'number_order_prefixes',
  createSchema: v.object({ name: optionalText, prefix: prefixParam, country: v.optional(oneOf(PREFIX_COUNTRIES)), description: optionalText }),
  updateSchema: v.object({ name: optionalText, prefix: v.optional(prefixParam), country: v.optional(oneOf(PREFIX_COUNTRIES)), description: optionalText }),
  defaults: { name: null, prefix: null, country: 'US', description: null },
  order: { values: ['id', 'name', 'prefix', 'created_at', 'updated_at'], default: 'id' },
  filters: { prefix: { schema: prefixParam }, country: { schema: oneOf(PREFIX_COUNTRIES) } },
  fulltextFields: ['name', 'prefix', 'description'],
});

/** Numbers one order buys at most. */
export const MAX_ORDER_QUANTITY = 100;
export const NUMBER_ORDER_STATUSES = ['pending', 'in_progress', 'completed', 'partially_completed', 'failed'] as const;

const readOnly = (field: string) => v.optional(v.never(`cannot be changed: ${field === 'status' ? 'the order sets it' : 'place another order'}`));

export const numberOrders = defineResource({
  ...routing.numberOrders,
  ...numberOrdersView,
  root: 'number_order',
  plural: 'number_orders',
  createSchema: v.object({
    name: optionalText,
    quantity: v.pipe(integerParam, v.minValue(1, 'must be greater than or equal to 1'), v.maxValue(MAX_ORDER_QUANTITY, `must be less than or equal to ${MAX_ORDER_QUANTITY}`)),
    area_code: v.optional(blankable(areaCodeParam)),
    prefix: v.optional(blankable(prefixParam)),
    number_order_prefix_id: optionalId,
    offer_id: idParam,
    traffic_source_id: optionalId,
    ring_pool_id: optionalId,
  }),
  updateSchema: v.object({
    name: optionalText,
    ...Object.fromEntries(['quantity', 'area_code', 'prefix', 'number_order_prefix_id', 'offer_id', 'traffic_source_id', 'ring_pool_id', 'status'].map((field) => [field, readOnly(field)])),
  }),
  defaults: {
    name: null,
    area_code: null,
    prefix: null,
    number_order_prefix_id: null,
    traffic_source_id: null,
    ring_pool_id: null,
    status: 'pending',
    fulfilled_count: 0,
    phone_number_ids: [],
    errors: [],
    completed_at: null,
  },
  order: { values: ['id', 'name', 'created_at', 'updated_at'], default: 'id' },
  filters: { status: { schema: oneOf(NUMBER_ORDER_STATUSES) }, offer_id: { schema: idParam } },
  fulltextFields: ['name'],
  check: (record): Record<string, string[]> => {
    const given = ['area_code', 'prefix', 'number_order_prefix_id'].filter((field) => record[field] !== null && record[field] !== undefined);
    return given.length > 1 ? { base: ['give at most one of area_code, prefix and number_order_prefix_id'] } : {};
  },
  behaviour: () => import('./number-order-fill.js'),
});
