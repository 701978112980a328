import { callView } from '../calls/call-view.js';
import { getCall } from '../calls/call-store.js';
import { getRecord, queryAllRecords } from '../db/records.js';
import { ValidationError } from '../http/errors.js';
import type { QueueMessage } from '../ports/events.js';
import type { HookContext } from '../resources/define.js';
import { webhookMessages } from './webhook-messages.js';

/**
 * `POST /api/v1/webhook_manual_fires` really fires (docs/events.md): the named outgoing webhook,
 * or without `outgoing_webhook_id` every enabled outgoing webhook whose trigger_type is `manual`,
 * sends each of its URLs with the tokens of the call (`call_id`) or lead (`lead_id`) named. The
 * sends are queued in the fire's own transaction (outbox) and go through the delivery function
 * like every webhook (retries, webhook_logs); each attempt's log id and outcome is noted on the
 * fire, whose `fire_status` follows: queued, sending, delivered, failed, partly_delivered.
 */
async function webhooksToFire(companyId: number, fields: Record<string, unknown>): Promise<Record<string, unknown>[]> {
  if (typeof fields.outgoing_webhook_id === 'number') {
    const webhook = await getRecord(companyId, 'outgoing_webhooks', fields.outgoing_webhook_id);
    if (!webhook) throw new ValidationError({ outgoing_webhook_id: [`does not exist: ${fields.outgoing_webhook_id}`] });
    return [webhook];
  }
  return (await queryAllRecords(companyId, 'outgoing_webhooks')).filter((webhook) => webhook.trigger_type === 'manual' && webhook.enabled !== false);
}

async function objectOf(companyId: number, fields: Record<string, unknown>): Promise<Record<string, unknown>> {
  if (typeof fields.call_id === 'number') {
    const call = await getCall(companyId, fields.call_id);
    if (!call) throw new ValidationError({ call_id: [`does not exist: ${fields.call_id}`] });
    return callView(call);
  }
  // Leads arrive with the leads work; until then a lead is known by its id alone.
  if (typeof fields.lead_id === 'number') return { id: fields.lead_id };
  return {};
}

function urlCount(webhooks: readonly Record<string, unknown>[]): number {
  return webhooks.reduce((sum, webhook) => sum + (Array.isArray(webhook.outgoing_url_ids) ? webhook.outgoing_url_ids.length : 0), 0);
}

/**
 * What prepareCreate read for a request (the webhooks and the object), kept for its messages
 * hook: the engine passes both hooks the same context, so the fire's reads happen once.
 */
const plans = new WeakMap<HookContext, { webhooks: Record<string, unknown>[]; object: Record<string, unknown> }>();

/** Checks what the fire names before anything is written, and stores how many URLs it sends. */
export async function prepareCreate(context: HookContext, fields: Record<string, unknown>): Promise<Record<string, unknown>> {
  const [webhooks, object] = await Promise.all([webhooksToFire(context.companyId, fields), objectOf(context.companyId, fields)]);
  plans.set(context, { webhooks, object });
  return { ...fields, url_count: urlCount(webhooks) };
}

export async function messages(context: HookContext, change: { after: Record<string, unknown> }): Promise<QueueMessage[]> {
  const fire = change.after;
  const plan = plans.get(context);
  if (!plan) throw new Error('webhook_manual_fires: messages before prepareCreate');
  return plan.webhooks.flatMap((webhook) =>
    webhookMessages(context.companyId, webhook, { key: `fire${String(fire.id)}`, event: null, eventId: null, fireId: Number(fire.id), object: plan.object }),
  );
}
