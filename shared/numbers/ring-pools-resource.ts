import * as v from 'valibot';
import { idParam, presentString } from '../http/param-schemas.js';
import { defineResource } from '../resources/define.js';
import { optionalText, optionalId } from '../resources/field-schemas.js';
import * as routing from '../resources/routing/numbers.js';
import { ringPoolsView } from './ring-pools-view.js';

/**
 * Number pools (`ring_pools`): a named set of a company's tracking numbers for one offer, from
 * which ping/post routing hands out a number. Membership is set on the number (`ring_pool_id`);
 * the pool shows its numbers (`phone_number_ids`, `numbers_count`) from one Query of the
 * company's numbers. Deleting a pool takes its numbers out of it.
 */

export const ringPools = defineResource({
  ...routing.ringPools,
  ...ringPoolsView,
  root: 'ring_pool',
  plural: 'ring_pools',
  createSchema: v.object({ name: presentString, offer_id: idParam, traffic_source_id: optionalId, description: optionalText }),
  updateSchema: v.object({ name: v.optional(presentString), offer_id: v.optional(idParam), traffic_source_id: optionalId, description: optionalText }),
  defaults: { name: null, description: null, offer_id: null, traffic_source_id: null },
  order: { values: ['id', 'name', 'numbers_count', 'created_at', 'updated_at'], default: 'id' },
  // Counted from the company's numbers when shown (the view's enricher).
  computedOrder: ['numbers_count'],
  filters: { offer_id: { schema: idParam }, traffic_source_id: { schema: idParam } },
  fulltextFields: ['name', 'description'],
  serializers: ['ring_pool', 'ring_pool_grid'],
  behaviour: () => import('./ring-pool-behaviour.js'),
});
