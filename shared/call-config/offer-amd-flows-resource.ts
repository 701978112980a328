import * as v from 'valibot';
import { booleanParam, idParam, integerParam, oneOf } from '../http/param-schemas.js';
import { defineResource } from '../resources/define.js';
import { optionalId, optionalText } from '../resources/field-schemas.js';
import * as routing from '../resources/routing/configuration.js';
import { offerAmdFlowsView } from './offer-amd-flows-view.js';

/**
 * What an outbound call of an offer does when an answering machine picks up (docs/call-configuration.md,
 * "Sounds, answering machines and number orders"). One flow per offer: while an enabled flow
 * exists, the offer's outbound calls ask the carrier to detect machines; the answer webhook then
 * applies the flow (shared/call-config/amd-flows.ts) instead of ringing buyers.
 */
export const AMD_ACTIONS = ['hang_up', 'leave_message', 'retry_later'] as const;

const minutes = v.pipe(integerParam, v.minValue(1, 'must be greater than or equal to 1'), v.maxValue(10_080, 'must be less than or equal to 10080'));
const retries = v.pipe(integerParam, v.minValue(1, 'must be greater than or equal to 1'), v.maxValue(20, 'must be less than or equal to 20'));
const messageText = v.optional(v.nullable(v.pipe(v.string('is not a string'), v.trim(), v.maxLength(1000, 'is too long (maximum is 1000 characters)'), v.transform((text) => text || null))));

const flowFields = {
  name: optionalText,
  sound_file_id: optionalId,
  message_text: messageText,
  retry_after_minutes: v.optional(minutes),
  max_retries: v.optional(retries),
  enabled: v.optional(booleanParam),
};

export const offerAmdFlows = defineResource({
  ...routing.offerAmdFlows,
  ...offerAmdFlowsView,
  root: 'offer_amd_flow',
  plural: 'offer_amd_flows',
  createSchema: v.object({ ...flowFields, offer_id: idParam, action: oneOf(AMD_ACTIONS) }),
  updateSchema: v.object({ ...flowFields, offer_id: v.optional(idParam), action: v.optional(oneOf(AMD_ACTIONS)) }),
  defaults: { name: null, action: null, sound_file_id: null, message_text: null, retry_after_minutes: 60, max_retries: 3, enabled: true },
  order: { values: ['id', 'name', 'created_at', 'updated_at'], default: 'id' },
  filters: { offer_id: { schema: idParam }, action: { schema: oneOf(AMD_ACTIONS) } },
  fulltextFields: ['name', 'message_text'],
  // One flow per offer; its lookup item carries the flow, so an outbound call reads it with one GetItem.
  unique: [{ field: 'offer_id', scope: 'company' }],
  lookupAttributes: (record) => ({
    action: record.action ?? null,
    sound_file_id: record.sound_file_id ?? null,
    message_text: record.message_text ?? null,
    retry_after_minutes: record.retry_after_minutes ?? null,
    max_retries: record.max_retries ?? null,
    enabled: record.enabled !== false,
  }),
  check: (record): Record<string, string[]> =>
    record.action === 'leave_message' && record.sound_file_id == null && !record.message_text ? { message_text: ["can't be blank when action is leave_message and no sound_file_id is given"] } : {},
});
