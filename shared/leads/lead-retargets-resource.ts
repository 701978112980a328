import * as v from 'valibot';
import { idParam, integerParam, oneOf } from '../http/param-schemas.js';
import { defineResource } from '../resources/define.js';
import { optionalText } from '../resources/field-schemas.js';
import { tokenFilterListParam } from '../routing/token-fields.js';
import * as routing from '../resources/routing/schedules.js';
import { leadRetargetsView } from './lead-retargets-view.js';

/**
 * Lead retargets: move (or copy) the active leads of one schedule that match a filter into
 * another schedule, where they start at its first action. The work happens when the retarget is
 * created, at most `lead_limit` leads (<= 100) per retarget; `has_more` says another retarget
 * would find more. Each lead's outcome is a lead_retarget_logs entry (docs/leads.md).
 */
export const RETARGET_TYPES = ['move', 'copy'] as const;
export const MAX_RETARGET_LEADS = 100;

const fields = {
  name: optionalText,
  record_token_filter_list: v.optional(tokenFilterListParam),
  retarget_type: v.optional(oneOf(RETARGET_TYPES)),
  lead_limit: v.optional(v.pipe(integerParam, v.minValue(1, 'must be between 1 and 100'), v.maxValue(MAX_RETARGET_LEADS, 'must be between 1 and 100'))),
};

export const leadRetargets = defineResource({
  ...routing.leadRetargets,
  ...leadRetargetsView,
  root: 'lead_retarget',
  plural: 'lead_retargets',
  createSchema: v.object({ ...fields, source_schedule_id: idParam, target_schedule_id: idParam }),
  // A retarget ran when it was created; an update renames it, it does not run again.
  updateSchema: v.object({ name: optionalText }),
  defaults: {
    name: null,
    source_schedule_id: null,
    target_schedule_id: null,
    record_token_filter_list: null,
    retarget_type: 'move',
    lead_limit: MAX_RETARGET_LEADS,
    scanned_count: 0,
    retargeted_count: 0,
    skipped_count: 0,
    has_more: false,
    succeeded_at: null,
  },
  filters: { source_schedule_id: { schema: idParam }, target_schedule_id: { schema: idParam } },
  order: { values: ['id', 'created_at'], default: 'id' },
  fulltextFields: ['name'],
  check: (record): Record<string, string[]> => (record.source_schedule_id === record.target_schedule_id ? { target_schedule_id: ['must be another schedule than source_schedule_id'] } : {}),
  behaviour: () => import('./lead-retarget-behaviour.js'),
});
