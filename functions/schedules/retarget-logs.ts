import { dayLogOperations } from '../../shared/http/day-log-list.js';
import { idParam, oneOf } from '../../shared/http/param-schemas.js';
import { LEAD_RETARGET_LOG_COLUMNS, LEAD_RETARGET_LOGS } from '../../shared/leads/lead-retarget.js';
import { RETARGET_TYPES } from '../../shared/leads/lead-retargets-resource.js';

/** `GET /api/v1/lead_retarget_logs`: what each lead retarget did to each lead, newest first by cursor. */
export const { list: listLeadRetargetLogs, listSchema: leadRetargetLogListSchema } = dayLogOperations({
  resource: LEAD_RETARGET_LOGS,
  root: 'lead_retarget_log',
  plural: 'lead_retarget_logs',
  columns: LEAD_RETARGET_LOG_COLUMNS,
  timeColumns: ['created_at'],
  filters: {
    lead_retarget_id: idParam,
    lead_id: idParam,
    source_schedule_id: idParam,
    target_schedule_id: idParam,
    retarget_type: oneOf(RETARGET_TYPES),
    outcome: oneOf(['moved', 'copied', 'skipped']),
  },
});
