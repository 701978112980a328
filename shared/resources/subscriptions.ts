import * as v from 'valibot';
import { EVENT_NAMES } from '../events/event-names.js';
import { blankable, booleanParam, httpUrlParam, idParam, jsonObject, oneOf, presentString } from '../http/param-schemas.js';
import { ALL_OPERATIONS, defineResource } from './define.js';

/** `trigger_fields`: only these keys, integer ids and boolean flags. Blank means "no filter". */
const triggerFields = blankable(
  jsonObject(
    v.strictObject(
      {
        schedule_id: v.optional(idParam),
        traffic_source_id: v.optional(idParam),
        offer_id: v.optional(idParam),
        buyer_id: v.optional(idParam),
        number_id: v.optional(idParam),
        buyer_converted: v.optional(booleanParam),
        has_recording: v.optional(booleanParam),
        either_converted: v.optional(booleanParam),
        offer_converted: v.optional(booleanParam),
      },
      'is not an allowed key',
    ),
    'is not a hash of trigger fields',
  ),
);

const targetUrl = v.pipe(presentString, httpUrlParam);
const eventName = oneOf(EVENT_NAMES);

export const subscriptions = defineResource({
  name: 'subscriptions',
  group: 'subscriptions',
  root: 'subscription',
  plural: 'subscriptions',
  type: 'Subscription',
  operations: ALL_OPERATIONS,
  newPath: '/api/v1/webhook_subscriptions/new',
  createSchema: v.object({
    target_url: targetUrl,
    event: eventName,
    trigger_fields: v.optional(triggerFields),
  }),
  updateSchema: v.object({
    target_url: v.optional(targetUrl),
    event: v.optional(eventName),
    trigger_fields: v.optional(triggerFields),
  }),
  defaults: { target_url: null, event: null, trigger_fields: {} },
  columns: ['target_url', 'event', 'trigger_fields'],
  order: { values: ['id', 'created_at', 'updated_at', 'event', 'target_url'], default: 'id' },
  fulltextFields: ['target_url', 'event'],
});
