import { defineView } from '../resources/define.js';
import * as routing from '../resources/routing/configuration.js';

/** How the resources of offer-amd-flows-resource.ts are shown (their views); their write side stays there. Imports no schema. */

export const offerAmdFlowsView = defineView({
  name: routing.offerAmdFlows.name,
  type: 'OfferAmdFlow',
  columns: ['company_id', 'name', 'offer_id', 'action', 'sound_file_id', 'message_text', 'retry_after_minutes', 'max_retries', 'enabled'],
  foreignKeys: { offer_id: { resource: 'offers', association: 'offer' }, sound_file_id: { resource: 'sound_files' } },
});
