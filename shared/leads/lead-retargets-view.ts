import { defineView } from '../resources/define.js';
import * as routing from '../resources/routing/schedules.js';

/** How the resources of lead-retargets-resource.ts are shown (their views); their write side stays there. Imports no schema. */

export const leadRetargetsView = defineView({
  name: routing.leadRetargets.name,
  type: 'LeadRetarget',
  columns: [
    'company_id',
    'name',
    'source_schedule_id',
    'target_schedule_id',
    'record_token_filter_list',
    'retarget_type',
    'lead_limit',
    'scanned_count',
    'retargeted_count',
    'skipped_count',
    'has_more',
    'succeeded_at',
  ],
  foreignKeys: { source_schedule_id: { resource: 'schedules' }, target_schedule_id: { resource: 'schedules' } },
});
