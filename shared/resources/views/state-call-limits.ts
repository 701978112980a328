import { defineView } from '../define.js';
import * as routing from '../routing.js';

export const stateCallLimitsView = defineView({
  name: routing.stateCallLimits.name,
  type: 'StateCallLimit',
  columns: ['company_id', 'name', 'state', 'offer_id', 'concurrent_limit', 'daily_limit', 'enabled'],
  foreignKeys: { offer_id: { resource: 'offers' } },
});
