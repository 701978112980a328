import { defineView } from '../resources/define.js';
import * as routing from '../resources/routing/numbers.js';

/** How the resources of phone-numbers-resource.ts are shown (their views); their write side stays there. Imports no schema. */

export const phoneNumbersView = defineView({
  name: routing.phoneNumbers.name,
  type: 'PhoneNumber',
  columns: ['company_id', 'number', 'name', 'offer_id', 'traffic_source_id', 'ring_pool_id', 'provider', 'provider_id', 'status'],
  foreignKeys: {
    offer_id: { resource: 'offers', association: 'offer' },
    traffic_source_id: { resource: 'traffic_sources', association: 'traffic_source' },
    ring_pool_id: { resource: 'ring_pools', association: 'ring_pool' },
  },
});
