import { defineView } from '../resources/define.js';
import * as routing from '../resources/routing/schedules.js';

/** How the resources of schedules-resource.ts are shown (their views); their write side stays there. Imports no schema. */

export const schedulesView = defineView({
  name: routing.schedules.name,
  type: 'Schedule',
  columns: ['company_id', 'name', 'context_menu_name', 'description', 'time_zone', 'offer_id', 'paused', 'hours_to_expire', 'max_contact_attempts', 'lead_token'],
  foreignKeys: { offer_id: { resource: 'offers', association: 'offer' } },
  derive: (record) => ({ context_menu_name: record.name ?? null }),
});
