import * as v from 'valibot';
import { EVENT_NAMES } from './event-names.js';
import { blankable, booleanParam, httpUrlParam, idParam, jsonObject, oneOf, presentString } from '../http/param-schemas.js';
import { defineResource } from '../resources/define.js';
import { reachableTarget } from './outgoing-request-fields.js';
import { newSigningSecret } from './signing.js';
import * as routing from '../resources/routing/subscriptions.js';
import { subscriptionsView } from './subscriptions-view.js';

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

/** An http(s) URL that is not a literal loopback, private or link-local address (hostnames are checked when connecting). */
const targetUrl = v.pipe(presentString, httpUrlParam, reachableTarget);
const eventName = oneOf(EVENT_NAMES);

export const subscriptions = defineResource({
  ...routing.subscriptions,
  ...subscriptionsView,
  root: 'subscription',
  plural: 'subscriptions',
  createSchema: v.object({
    target_url: targetUrl,
    event: eventName,
    trigger_fields: v.optional(triggerFields),
    enabled: v.optional(booleanParam),
  }),
  updateSchema: v.object({
    target_url: v.optional(targetUrl),
    event: v.optional(eventName),
    trigger_fields: v.optional(triggerFields),
    // true after fixing a receiver: deliveries resume and the failure state is cleared.
    enabled: v.optional(booleanParam),
    // A new signing secret, shown in this response only; the old one keeps signing for 24 hours.
    rotate_secret: v.optional(booleanParam),
  }),
  instructions: ['rotate_secret'],
  defaults: { target_url: null, event: null, trigger_fields: {}, enabled: true, failing_since: null, disabled_at: null, disabled_reason: null },
  // The signing secret (Standard Webhooks) is shown once, by the create or rotation that made it.
  generate: () => ({ secret: newSigningSecret() }),
  revealedOnWrite: ['secret'],
  behaviour: () => import('./subscription-behaviour.js'),
  order: { values: ['id', 'created_at', 'updated_at', 'event', 'target_url'], default: 'id' },
  fulltextFields: ['target_url', 'event'],
});
