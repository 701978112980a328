import * as v from 'valibot';
import { dayLogOperations } from '../../shared/http/day-log-list.js';
import { idParam, oneOf, presentString } from '../../shared/http/param-schemas.js';
import { CHANGE_EVENTS, CHANGE_LOG_COLUMNS, CHANGE_LOGS } from '../../shared/resources/change-log.js';
import { resourceRoutings } from '../../shared/resources/routing.js';

const resourceNames = resourceRoutings.map((routing) => routing.name) as unknown as readonly [string, ...string[]];

/**
 * `GET /api/v1/change_logs` and `GET /api/v1/change_logs/:id`: the audit trail of every create,
 * update and delete made through the resource engine (shared/resources/change-log.ts), newest
 * first by cursor, filtered by PaperTrail's names: `item_type` (the resource), `item_id`,
 * `event`, `whodunnit`, plus `user_id`.
 */
export const { list: listChangeLogs, show: showChangeLog, listSchema: changeLogListSchema, showSchema: changeLogShowSchema } = dayLogOperations({
  resource: CHANGE_LOGS,
  root: 'change_log',
  plural: 'change_logs',
  columns: CHANGE_LOG_COLUMNS,
  timeColumns: ['created_at'],
  filters: {
    item_type: oneOf(resourceNames),
    item_id: idParam,
    event: oneOf(CHANGE_EVENTS),
    whodunnit: v.pipe(presentString, v.maxLength(100, 'is too long (maximum is 100 characters)')),
    user_id: idParam,
  },
});
