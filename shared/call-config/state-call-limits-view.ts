import { defineView } from '../resources/define.js';
import * as routing from '../resources/routing/configuration.js';

/** How the resources of state-call-limits-resource.ts are shown (their views); their write side stays there. Imports no schema. */

export const stateCallLimitsView = defineView({
  name: routing.stateCallLimits.name,
  type: 'StateCallLimit',
  columns: ['company_id', 'name', 'state', 'offer_id', 'concurrent_limit', 'daily_limit', 'enabled'],
  foreignKeys: { offer_id: { resource: 'offers' } },
});
