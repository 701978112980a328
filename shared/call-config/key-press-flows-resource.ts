import * as v from 'valibot';
import { blankable, booleanParam, idParam, oneOf, presentString } from '../http/param-schemas.js';
import { phoneOrSipParam } from '../resources/phone-or-sip-param.js';
import { digitsParam, tokenValuesParam } from './call-config-fields.js';
import { defineResource } from '../resources/define.js';
import { idListParam, optionalId, optionalText } from '../resources/field-schemas.js';
import * as routing from '../resources/routing/configuration.js';
import { callControlActionsView, keyPressFlowsView, keyPressFlowGroupsView } from './key-press-flows-view.js';

/**
 * What keys pressed during a bridged call do (docs/call-configuration.md, "IVR routers and key
 * presses"). A key press flow binds keys to a call control action; a key press flow group
 * collects flows and is attached to an offer and/or a buyer (unique lookups: one group per offer,
 * one per buyer), so a key press finds its flows with keyed reads (shared/call-config/key-presses.ts).
 */
const idList = v.optional(v.pipe(idListParam, v.transform((ids) => ids ?? [])));
const flag = v.optional(booleanParam);

export const CONTROL_ACTION_TYPES = ['transfer', 'hangup', 'set_tokens', 'fire_webhook'] as const;

const actionFields = {
  name: optionalText,
  transfer_number: v.optional(blankable(phoneOrSipParam)),
  transfer_buyer_id: optionalId,
  token_values: tokenValuesParam,
  outgoing_webhook_id: optionalId,
};

/** Each action type needs its own field: a transfer exactly one target. */
export function checkControlAction(record: Record<string, unknown>): Record<string, string[]> {
  const blank = (field: string) => record[field] === null || record[field] === undefined || record[field] === '';
  switch (record.action_type) {
    case 'transfer':
      if (blank('transfer_number') === blank('transfer_buyer_id')) return { transfer_number: ['set exactly one of transfer_number and transfer_buyer_id for a transfer'] };
      return {};
    case 'set_tokens':
      return record.token_values && Object.keys(record.token_values as object).length ? {} : { token_values: ["can't be blank for a set_tokens action"] };
    case 'fire_webhook':
      return blank('outgoing_webhook_id') ? { outgoing_webhook_id: ["can't be blank for a fire_webhook action"] } : {};
    default:
      return {};
  }
}

export const callControlActions = defineResource({
  ...routing.callControlActions,
  ...callControlActionsView,
  root: 'call_control_action',
  plural: 'call_control_actions',
  createSchema: v.object({ ...actionFields, action_type: oneOf(CONTROL_ACTION_TYPES) }),
  updateSchema: v.object({ ...actionFields, action_type: v.optional(oneOf(CONTROL_ACTION_TYPES)) }),
  defaults: { name: null, action_type: null, transfer_number: null, transfer_buyer_id: null, token_values: {}, outgoing_webhook_id: null },
  filters: { action_type: { schema: oneOf(CONTROL_ACTION_TYPES) } },
  order: { values: ['id', 'name', 'created_at', 'updated_at'], default: 'id' },
  fulltextFields: ['name'],
  check: checkControlAction,
});

const flowFields = { name: optionalText, enabled: flag };

export const keyPressFlows = defineResource({
  ...routing.keyPressFlows,
  ...keyPressFlowsView,
  root: 'key_press_flow',
  plural: 'key_press_flows',
  createSchema: v.object({ ...flowFields, digits: digitsParam(8), call_control_action_id: idParam }),
  updateSchema: v.object({ ...flowFields, digits: v.optional(digitsParam(8)), call_control_action_id: v.optional(idParam) }),
  defaults: { name: null, digits: null, call_control_action_id: null, enabled: true },
  filters: { call_control_action_id: { schema: idParam } },
  order: { values: ['id', 'name', 'digits', 'created_at', 'updated_at'], default: 'id' },
  fulltextFields: ['name', 'digits'],
});

const groupFields = { description: optionalText, key_press_flow_ids: idList, offer_id: optionalId, buyer_id: optionalId, enabled: flag };

export const keyPressFlowGroups = defineResource({
  ...routing.keyPressFlowGroups,
  ...keyPressFlowGroupsView,
  root: 'key_press_flow_group',
  plural: 'key_press_flow_groups',
  createSchema: v.object({ name: presentString, ...groupFields }),
  updateSchema: v.object({ name: v.optional(presentString), ...groupFields }),
  defaults: { name: null, description: null, key_press_flow_ids: [], offer_id: null, buyer_id: null, enabled: true },
  filters: { offer_id: { schema: idParam }, buyer_id: { schema: idParam } },
  order: { values: ['id', 'name', 'created_at', 'updated_at'], default: 'id' },
  fulltextFields: ['name', 'description'],
  // One group per offer and per buyer: a key press reads these lookups by key.
  unique: [
    { field: 'offer_id', scope: 'company' },
    { field: 'buyer_id', scope: 'company' },
  ],
});
