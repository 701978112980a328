import { dayLogOperations } from '../../shared/http/day-log-list.js';
import { idParam, oneOf } from '../../shared/http/param-schemas.js';

/** Columns of an inbound webhook log entry (a ping or a post). */
export const LOG_COLUMNS = [
  'id',
  'uuid',
  'created_at',
  'kind',
  'inbound_webhook_id',
  'vanity_uri',
  'offer_id',
  'caller_id',
  'traffic_source_id',
  'success',
  'eligible_buyer_ids',
  'excluded_buyers',
  'excluded_count',
  // The asks of bidding buyers (include_dynamic_buyers; docs/rtb.md), secrets redacted.
  'buyer_pings',
  'request',
  'response',
  'test_mode',
  'duration_ms',
] as const;

/**
 * `GET /api/v1/inbound_webhook_logs`: every ping and post, newest first, with what was asked,
 * what was answered, which buyers were excluded and why, and how long it took. Pages by cursor
 * (`cursor=-1` or none starts at the newest) over the day partitions.
 */
export const { list: listLogs, listSchema: logListSchema } = dayLogOperations({
  resource: 'inbound_webhook_logs',
  root: 'inbound_webhook_log',
  plural: 'inbound_webhook_logs',
  columns: LOG_COLUMNS,
  timeColumns: ['created_at'],
  filters: { inbound_webhook_id: idParam, kind: oneOf(['ping', 'post']) },
});
