import { randomUUID } from 'node:crypto';
import { telephonyPort } from '../adapters/index.js';
import { recordOnTimeline } from '../calls/call-flow.js';
import type { CallRecord } from '../calls/call-store.js';
import { callView } from '../calls/call-view.js';
import { keys } from '../db/keys.js';
import { getItems, getRecord, getRecords, type StoredRecord } from '../db/records.js';
import { webhookMessages } from '../events/webhook-messages.js';
import { ValidationError } from '../http/errors.js';
import type { QueueMessage } from '../ports/events.js';
import { transferTwiml } from '../voice/twiml.js';

/**
 * Keys pressed during a bridged call (docs/call-configuration.md, "IVR routers and key presses"):
 * the key press flow groups of the call's buyer and offer (unique lookups, one BatchGet) name
 * flows; the first enabled flow whose digits equal the keys runs its call control action.
 */

export interface KeyBinding {
  id: number;
  digits?: unknown;
  enabled?: unknown;
  call_control_action_id?: unknown;
}

/** The flow the keys choose: digits equal (a trailing # does not count), first in order. Pure. */
export function matchKeyPressFlow<F extends KeyBinding>(flows: readonly F[], digits: string): F | undefined {
  const pressed = digits.length > 1 ? digits.replace(/#$/, '') : digits;
  return flows.find((flow) => flow.enabled !== false && typeof flow.digits === 'string' && flow.digits === pressed);
}

function ids(value: unknown): number[] {
  return Array.isArray(value) ? value.filter((id): id is number => typeof id === 'number') : [];
}

/** The flows bound for a call: its buyer's group first (more specific), then its offer's. */
async function flowsOf(companyId: number, call: CallRecord): Promise<StoredRecord[]> {
  const lookups = [
    ...(typeof call.buyer_id === 'number' ? [keys.lookup(companyId, 'key_press_flow_groups', 'buyer_id', String(call.buyer_id))] : []),
    ...(typeof call.offer_id === 'number' ? [keys.lookup(companyId, 'key_press_flow_groups', 'offer_id', String(call.offer_id))] : []),
  ];
  if (!lookups.length) return [];
  const found = await getItems(lookups);
  const groupIds = lookups.flatMap((key) => found.filter((item) => item.pk === key.pk).map((item) => Number(item.id)));
  const groups = (await getRecords(companyId, 'key_press_flow_groups', groupIds)).filter((group) => group.enabled !== false);
  return getRecords(companyId, 'key_press_flows', groups.flatMap((group) => ids(group.key_press_flow_ids)));
}

/** Where a transfer goes: its number, or its buyer's number. */
async function transferTarget(companyId: number, action: StoredRecord): Promise<string | undefined> {
  if (typeof action.transfer_number === 'string' && action.transfer_number) return action.transfer_number;
  const buyer = typeof action.transfer_buyer_id === 'number' ? await getRecord(companyId, 'buyers', action.transfer_buyer_id) : undefined;
  return typeof buyer?.number === 'string' && buyer.number ? buyer.number : undefined;
}

/**
 * The carrier reported keys pressed on a live call: runs the matching flow's action (transfer:
 * the caller's leg is redirected to dial the target; hangup; set_tokens: merged into the call's
 * data; fire_webhook: the outgoing webhook's URLs queued through the outbox in the same save as
 * the timeline entry). The press is always recorded, with what it did.
 */
export async function keyPressed(companyId: number, call: CallRecord, digits: string, at: Date): Promise<CallRecord> {
  const detail: Record<string, unknown> = { digits, source: 'carrier' };
  const carrierCallId = typeof call.carrier_call_id === 'string' ? call.carrier_call_id : undefined;
  if (!call.in_progress || !carrierCallId) return recordOnTimeline(companyId, call.id, 'key_press', { ...detail, result: 'call_not_in_progress' }, at);
  const flow = matchKeyPressFlow(await flowsOf(companyId, call), digits);
  const action = flow && typeof flow.call_control_action_id === 'number' ? await getRecord(companyId, 'call_control_actions', flow.call_control_action_id) : undefined;
  if (!flow || !action) return recordOnTimeline(companyId, call.id, 'key_press', { ...detail, result: 'no_flow' }, at);
  Object.assign(detail, { key_press_flow_id: flow.id, call_control_action_id: action.id, action_type: action.action_type });
  let data: Record<string, unknown> | undefined;
  let messages: QueueMessage[] = [];
  switch (action.action_type) {
    case 'transfer': {
      const target = await transferTarget(companyId, action);
      if (!target) return recordOnTimeline(companyId, call.id, 'key_press', { ...detail, result: 'no_transfer_target' }, at);
      await telephonyPort().redirect(carrierCallId, transferTwiml(target));
      detail.transfer_to = target;
      break;
    }
    case 'hangup':
      await telephonyPort().hangup(carrierCallId);
      break;
    case 'set_tokens':
      data = (action.token_values as Record<string, unknown> | null) ?? {};
      break;
    case 'fire_webhook': {
      const webhook = typeof action.outgoing_webhook_id === 'number' ? await getRecord(companyId, 'outgoing_webhooks', action.outgoing_webhook_id) : undefined;
      if (webhook && webhook.enabled !== false) {
        messages = webhookMessages(companyId, webhook, { key: `kp${call.id}.${randomUUID()}`, event: null, eventId: null, fireId: null, object: callView(call), kind: 'call' });
      }
      detail.webhook_urls = messages.length;
      break;
    }
  }
  try {
    return await recordOnTimeline(companyId, call.id, 'key_press', { ...detail, result: 'done' }, at, data, messages);
  } catch (error) {
    // Tokens that would take the call's data past its limits are not set; the press is still recorded.
    if (!(error instanceof ValidationError)) throw error;
    return recordOnTimeline(companyId, call.id, 'key_press', { ...detail, result: 'tokens_over_data_limits' }, at);
  }
}
