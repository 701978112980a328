import * as v from 'valibot';
import { blankable, idParam, integerParam } from '../http/param-schemas.js';
import { defineResource } from '../resources/define.js';
import { optionalText, timeParam } from '../resources/field-schemas.js';
import * as routing from '../resources/routing/schedules.js';
import { scheduledCallbacksView } from './scheduled-callbacks-view.js';

/**
 * Scheduled callbacks: a lead's callback at a time. Creating one sets the lead's callback_at
 * (from `callback_at`, or `callback_in_seconds` from now) and moves its pending step to then
 * (sooner if its next step was due sooner): the engine dials first, then the schedule goes on
 * where it was. Updating callback_at moves it; deleting one clears the lead's callback if it is
 * still this one (docs/leads.md).
 */
export const scheduledCallbacks = defineResource({
  ...routing.scheduledCallbacks,
  ...scheduledCallbacksView,
  root: 'scheduled_callback',
  plural: 'scheduled_callbacks',
  createSchema: v.object({
    lead_id: idParam,
    callback_at: v.optional(blankable(timeParam)),
    // Turned into callback_at by the behaviour's prepareCreate (not stored).
    callback_in_seconds: v.optional(blankable(v.pipe(integerParam, v.minValue(0, 'must be greater than or equal to 0'), v.maxValue(31_536_000, 'must be at most a year (31536000)')))),
    notes: optionalText,
  }),
  // Another time moves the lead's callback; the lead stays the one the callback was made for.
  updateSchema: v.object({ callback_at: v.optional(blankable(timeParam)), notes: optionalText }),
  defaults: { lead_id: null, schedule_id: null, caller_id: null, callback_at: null, notes: null },
  filters: { lead_id: { schema: idParam }, schedule_id: { schema: idParam } },
  order: { values: ['id', 'callback_at', 'created_at'], default: 'id' },
  behaviour: () => import('./scheduled-callback-behaviour.js'),
});
