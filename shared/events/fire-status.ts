/**
 * A manual fire's `fire_status`, from the URLs it sends and how many were delivered or given up
 * after their last attempt: nothing_to_fire, queued, sending, delivered, failed, partly_delivered.
 */
export function fireStatus(record: Record<string, unknown>): string {
  const urls = Number(record.url_count ?? 0);
  const delivered = Number(record.delivered_count ?? 0);
  const failed = Number(record.failed_count ?? 0);
  if (urls === 0) return 'nothing_to_fire';
  if (delivered + failed < urls) return delivered + failed === 0 && !(Array.isArray(record.webhook_log_ids) && record.webhook_log_ids.length) ? 'queued' : 'sending';
  if (failed === 0) return 'delivered';
  return delivered === 0 ? 'failed' : 'partly_delivered';
}
