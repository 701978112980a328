import { defineView } from '../resources/define.js';
import * as routing from '../resources/routing/numbers.js';

/** How the resources of ring-pools-resource.ts are shown (their views); their write side stays there. Imports no schema. */

export const ringPoolsView = defineView({
  name: routing.ringPools.name,
  type: 'RingPool',
  columns: ['company_id', 'name', 'description', 'offer_id', 'traffic_source_id', 'phone_number_ids', 'numbers_count'],
  foreignKeys: {
    offer_id: { resource: 'offers', association: 'offer' },
    traffic_source_id: { resource: 'traffic_sources', association: 'traffic_source' },
  },
  // Shown by `new`; stored pools get theirs from the enricher.
  derive: () => ({ phone_number_ids: [], numbers_count: 0 }),
  // The pool's numbers, counted from the company's numbers.
  enrich: () => import('./ring-pool-enrich.js').then((module) => module.enrich),
});
