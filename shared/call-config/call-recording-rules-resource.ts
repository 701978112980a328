import * as v from 'valibot';
import { booleanParam, idParam, oneOf } from '../http/param-schemas.js';
import { defineResource } from '../resources/define.js';
import { optionalId, optionalText } from '../resources/field-schemas.js';
import { tokenFilterListParam } from '../routing/token-fields.js';
import * as routing from '../resources/routing/configuration.js';
import { callRecordingRulesView } from './call-recording-rules-view.js';

/**
 * Call recording rules (docs/call-configuration.md): a dial is recorded when an enabled rule
 * matches it — its offer, buyer and traffic source (each blank = any) and its token filter
 * (shared/routing/token-filters.ts) over the call's data. `recording_channels` says how: `dual`
 * (caller and buyer on separate channels) or `mono`, both from the buyer's answer.
 */
export const RECORDING_CHANNELS = ['dual', 'mono'] as const;

const fields = {
  name: optionalText,
  enabled: v.optional(booleanParam),
  offer_id: optionalId,
  buyer_id: optionalId,
  traffic_source_id: optionalId,
  record_token_filter_list: v.optional(tokenFilterListParam),
  recording_channels: v.optional(oneOf(RECORDING_CHANNELS)),
};

export const callRecordingRules = defineResource({
  ...routing.callRecordingRules,
  ...callRecordingRulesView,
  root: 'call_recording_rule',
  plural: 'call_recording_rules',
  createSchema: v.object(fields),
  updateSchema: v.object(fields),
  defaults: { name: null, enabled: true, offer_id: null, buyer_id: null, traffic_source_id: null, record_token_filter_list: null, recording_channels: 'dual' },
  filters: { offer_id: { schema: idParam }, buyer_id: { schema: idParam }, traffic_source_id: { schema: idParam } },
  order: { values: ['id', 'name', 'created_at', 'updated_at'], default: 'id' },
  fulltextFields: ['name'],
});
