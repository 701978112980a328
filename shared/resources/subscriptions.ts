import * as v from 'valibot';
import { deleteRecord, queryAllRecords } from '../db/records.js';
import { NotFoundError } from '../http/errors.js';
import { blankable, booleanParam, httpUrlParam, idParam, jsonObject, oneOf, presentString } from '../http/param-schemas.js';
import type { Operation } from '../http/request.js';
import { validate } from '../http/validation.js';
import { EVENT_NAMES } from '../events/event-names.js';
import { defineResource } from './define.js';
import { writableInput } from './engine.js';
import { serializeRecord } from './serialize.js';

/**
 * `trigger_fields`: only these keys, integer ids and boolean flags. Blank means "no filter".
 */
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
  root: 'subscription',
  plural: 'subscriptions',
  type: 'Subscription',
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
});

/**
 * `DELETE /api/v1/subscriptions` with a `target_url`: removes every subscription of the
 * company posting to that URL (a client unsubscribing a URL wants no more deliveries there)
 * and answers with the first one removed; 404 when none matched.
 */
export const deleteByTargetUrl: Operation = async (request) => {
  const { target_url } = validate(v.object({ target_url: presentString }), writableInput(subscriptions, request.params));
  const companyId = request.auth.companyId;
  const matching = (await queryAllRecords(companyId, subscriptions.name)).filter((record) => record.target_url === target_url);
  if (matching.length === 0) throw new NotFoundError('No subscription with that target_url');
  for (const record of matching) await deleteRecord(companyId, subscriptions.name, record.id);
  return {
    kind: 'record',
    root: subscriptions.root,
    record: serializeRecord(subscriptions, matching[0]!),
  };
};
