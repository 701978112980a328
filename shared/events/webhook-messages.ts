import type { QueueMessage } from '../ports/events.js';
import { objectKindOf } from './payload.js';
import { webhookTokens } from './webhook-tokens.js';

/**
 * One message per outgoing URL of an outgoing webhook, for an object (a call) and what fired it.
 * Apart from delivery.ts (which fans events out with it) so the functions that queue webhook
 * messages themselves (voice key presses, lead schedule steps, manual fires) do not bundle the
 * sending side: signing, the address policy, the HTTP client.
 */
export function webhookMessages(
  companyId: number,
  webhook: Record<string, unknown>,
  /** `kind` names the object when the event does not (a schedule action fires for a lead). */
  source: { key: string; event: string | null; eventId: string | null; fireId: number | null; object: Record<string, unknown>; kind?: 'call' | 'lead' },
): QueueMessage[] {
  const urlIds = Array.isArray(webhook.outgoing_url_ids) ? (webhook.outgoing_url_ids as number[]) : [];
  const kind = source.kind ?? (source.event ? objectKindOf(source.event) : 'call');
  return urlIds.map((urlId) => ({
    kind: 'webhook',
    id: `${source.key}.w${String(webhook.id)}.u${urlId}`,
    companyId,
    outgoingWebhookId: Number(webhook.id),
    urlId,
    source: {
      event: source.event,
      eventId: source.eventId,
      fireId: source.fireId,
      callId: kind === 'call' && typeof source.object.id === 'number' ? source.object.id : null,
      leadId: kind === 'lead' && typeof source.object.id === 'number' ? source.object.id : null,
      tokens: webhookTokens(source.event, source.eventId, source.object, kind),
    },
  }));
}
