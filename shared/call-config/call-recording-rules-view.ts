import { defineView } from '../resources/define.js';
import * as routing from '../resources/routing/configuration.js';

/** How the resources of call-recording-rules-resource.ts are shown (their views); their write side stays there. Imports no schema. */

export const callRecordingRulesView = defineView({
  name: routing.callRecordingRules.name,
  type: 'CallRecordingRule',
  columns: ['company_id', 'name', 'enabled', 'offer_id', 'buyer_id', 'traffic_source_id', 'record_token_filter_list', 'recording_channels'],
  foreignKeys: { offer_id: { resource: 'offers' }, buyer_id: { resource: 'buyers' }, traffic_source_id: { resource: 'traffic_sources' } },
});
