import { defineView } from '../resources/define.js';
import * as routing from '../resources/routing/schedules.js';

/** How the resources of scheduled-callbacks-resource.ts are shown (their views); their write side stays there. Imports no schema. */

export const scheduledCallbacksView = defineView({
  name: routing.scheduledCallbacks.name,
  type: 'ScheduledCallback',
  columns: ['company_id', 'lead_id', 'schedule_id', 'caller_id', 'callback_at', 'notes'],
});
