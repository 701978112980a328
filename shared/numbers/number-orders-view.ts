import { defineView } from '../resources/define.js';
import * as routing from '../resources/routing/numbers.js';

/** How the resources of number-orders-resource.ts are shown (their views); their write side stays there. Imports no schema. */

export const numberOrderPrefixesView = defineView({
  name: routing.numberOrderPrefixes.name,
  type: 'NumberOrderPrefix',
  columns: ['company_id', 'name', 'prefix', 'country', 'country_code', 'description'],
  derive: () => ({ country_code: '1' }),
});

export const numberOrdersView = defineView({
  name: routing.numberOrders.name,
  type: 'NumberOrder',
  columns: [
    'company_id',
    'name',
    'quantity',
    'area_code',
    'prefix',
    'number_order_prefix_id',
    'offer_id',
    'traffic_source_id',
    'ring_pool_id',
    'status',
    'fulfilled_count',
    'phone_number_ids',
    'errors',
    'completed_at',
  ],
  foreignKeys: {
    number_order_prefix_id: { resource: 'number_order_prefixes' },
    offer_id: { resource: 'offers', association: 'offer' },
    traffic_source_id: { resource: 'traffic_sources' },
    ring_pool_id: { resource: 'ring_pools' },
  },
});
