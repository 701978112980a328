import { queryAllRecords } from '../db/records.js';
import { updateWithChangeLog } from '../resources/change-log.js';
import type { HookContext } from '../resources/define.js';

/** The outgoing_webhook_urls resource's behaviour beyond its own record. */

/**
 * A deleted URL leaves every outgoing webhook that listed it, so no webhook names a URL that is
 * gone and saving one with the `outgoing_url_ids` it shows never fails on it.
 */
export async function afterDelete(context: HookContext, url: Record<string, unknown>): Promise<void> {
  const id = Number(url.id);
  const now = context.now.toISOString();
  for (const webhook of await queryAllRecords(context.companyId, 'outgoing_webhooks')) {
    const listed = Array.isArray(webhook.outgoing_url_ids) ? (webhook.outgoing_url_ids as number[]) : [];
    if (listed.includes(id)) {
      await updateWithChangeLog(context, 'outgoing_webhooks', webhook, { outgoing_url_ids: listed.filter((member) => member !== id), updated_at: now });
    }
  }
}
