import { defineView } from '../resources/define.js';
import * as routing from '../resources/routing/configuration.js';

/** How the resources of key-press-flows-resource.ts are shown (their views); their write side stays there. Imports no schema. */

export const callControlActionsView = defineView({
  name: routing.callControlActions.name,
  type: 'CallControlAction',
  columns: ['company_id', 'name', 'action_type', 'transfer_number', 'transfer_buyer_id', 'token_values', 'outgoing_webhook_id'],
  foreignKeys: { transfer_buyer_id: { resource: 'buyers' }, outgoing_webhook_id: { resource: 'outgoing_webhooks' } },
});

export const keyPressFlowsView = defineView({
  name: routing.keyPressFlows.name,
  type: 'KeyPressFlow',
  columns: ['company_id', 'name', 'digits', 'call_control_action_id', 'enabled'],
  foreignKeys: { call_control_action_id: { resource: 'call_control_actions' } },
});

export const keyPressFlowGroupsView = defineView({
  name: routing.keyPressFlowGroups.name,
  type: 'KeyPressFlowGroup',
  columns: ['company_id', 'name', 'description', 'key_press_flow_ids', 'offer_id', 'buyer_id', 'enabled'],
  foreignKeys: { key_press_flow_ids: { resource: 'key_press_flows' }, offer_id: { resource: 'offers' }, buyer_id: { resource: 'buyers' } },
});
