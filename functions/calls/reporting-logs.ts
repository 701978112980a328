import { dayLogOperations } from '../../shared/http/day-log-list.js';
import { booleanParam, idParam, oneOf } from '../../shared/http/param-schemas.js';
import { DNC_CHECK_LOG_COLUMNS, DNC_CHECK_LOGS, DNC_CHECK_SOURCES } from '../../shared/reporting/dnc-checks.js';
import { IMPRESSION_COLUMNS, IMPRESSIONS } from '../../shared/reporting/number-impressions.js';
import { callerParam } from '../../shared/leads/lead-params.js';

/** `GET /api/v1/impressions`: ring pool numbers given to landing-page visitors, newest first by cursor. */
export const { list: listImpressions, listSchema: impressionListSchema } = dayLogOperations({
  resource: IMPRESSIONS,
  root: 'impression',
  plural: 'impressions',
  columns: IMPRESSION_COLUMNS,
  timeColumns: ['created_at', 'held_until'],
  filters: { ring_pool_id: idParam, phone_number_id: idParam },
});

/** `GET /api/v1/dnc_check_logs`: do-not-call checks before outbound dials and at lead intake, newest first by cursor. */
export const { list: listDncCheckLogs, listSchema: dncCheckLogListSchema } = dayLogOperations({
  resource: DNC_CHECK_LOGS,
  root: 'dnc_check_log',
  plural: 'dnc_check_logs',
  columns: DNC_CHECK_LOG_COLUMNS,
  timeColumns: ['created_at'],
  filters: { caller_number: callerParam, result: oneOf(['blocked', 'allowed']), blocked: booleanParam, source: oneOf(DNC_CHECK_SOURCES), lead_id: idParam },
});
