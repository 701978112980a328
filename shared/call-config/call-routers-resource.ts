import * as v from 'valibot';
import { blankable, booleanParam, decimalParam, idParam, oneOf, presentString } from '../http/param-schemas.js';
import { digitsParam, keywordListParam, rangeParam, spokenText, tokenValuesParam } from './call-config-fields.js';
import { defineResource } from '../resources/define.js';
import { idListParam, optionalId, optionalText } from '../resources/field-schemas.js';
import * as routing from '../resources/routing/configuration.js';
import { callRoutersView, callRouterAnswerGroupsView, callRouterAnswersView } from './call-routers-view.js';

/**
 * IVR menus (docs/call-configuration.md, "IVR routers and key presses"). A call router is played
 * to a caller before routing: a prompt, then the keys (or words) it waits for. Its answers, given
 * directly or through answer groups, each send the caller somewhere: an offer's buyers, a buyer
 * group, another router, or a hang-up, setting tokens on the way. A router is attached to an offer
 * and/or a tracking number through unique lookups (one router per offer, one per number), whose
 * items carry the router's id so the call path finds it with one BatchGet (shared/call-config/ivr.ts).
 */
const idList = v.optional(v.pipe(idListParam, v.transform((ids) => ids ?? [])));
const flag = v.optional(booleanParam);

const routerFields = {
  prompt_text: spokenText,
  invalid_input_text: spokenText,
  sound_file_id: optionalId,
  sound_playlist_id: optionalId,
  max_digits: v.optional(rangeParam(1, 32)),
  timeout_seconds: v.optional(rangeParam(1, 60)),
  speech_enabled: flag,
  max_repeats: v.optional(rangeParam(0, 10)),
  default_call_router_answer_id: optionalId,
  call_router_answer_ids: idList,
  call_router_answer_group_ids: idList,
  offer_id: optionalId,
  phone_number_id: optionalId,
  enabled: flag,
};

export const callRouters = defineResource({
  ...routing.callRouters,
  ...callRoutersView,
  root: 'call_router',
  plural: 'call_routers',
  createSchema: v.object({ name: presentString, ...routerFields }),
  updateSchema: v.object({ name: v.optional(presentString), ...routerFields }),
  defaults: {
    name: null,
    prompt_text: null,
    invalid_input_text: null,
    sound_file_id: null,
    sound_playlist_id: null,
    max_digits: 1,
    timeout_seconds: 5,
    speech_enabled: false,
    max_repeats: 2,
    default_call_router_answer_id: null,
    call_router_answer_ids: [],
    call_router_answer_group_ids: [],
    offer_id: null,
    phone_number_id: null,
    enabled: true,
  },
  filters: { offer_id: { schema: idParam }, phone_number_id: { schema: idParam } },
  order: { values: ['id', 'name', 'created_at', 'updated_at'], default: 'id' },
  fulltextFields: ['name', 'prompt_text'],
  // One router per offer and per tracking number: the call path reads these lookups by key.
  unique: [
    { field: 'offer_id', scope: 'company' },
    { field: 'phone_number_id', scope: 'company' },
  ],
});

export const callRouterAnswerGroups = defineResource({
  ...routing.callRouterAnswerGroups,
  ...callRouterAnswerGroupsView,
  root: 'call_router_answer_group',
  plural: 'call_router_answer_groups',
  createSchema: v.object({ name: presentString, description: optionalText, call_router_answer_ids: idList }),
  updateSchema: v.object({ name: v.optional(presentString), description: optionalText, call_router_answer_ids: idList }),
  defaults: { name: null, description: null, call_router_answer_ids: [] },
  order: { values: ['id', 'name', 'created_at', 'updated_at'], default: 'id' },
  fulltextFields: ['name', 'description'],
});

export const ANSWER_DESTINATIONS = ['offer', 'buyer_group', 'router', 'hangup'] as const;

/** Which field each destination needs. */
const DESTINATION_FIELD: Record<string, string | undefined> = { offer: 'offer_id', buyer_group: 'buyer_group_id', router: 'next_call_router_id' };

const answerFields = {
  digits: v.optional(blankable(digitsParam(32))),
  speech_keywords: keywordListParam,
  offer_id: optionalId,
  buyer_group_id: optionalId,
  next_call_router_id: optionalId,
  token_values: tokenValuesParam,
  sortable_order: v.optional(blankable(decimalParam)),
  enabled: flag,
};

/** The destination's field must be set; an answer matches on keys or words unless it is only a default. */
export function checkAnswer(record: Record<string, unknown>): Record<string, string[]> {
  const field = DESTINATION_FIELD[String(record.destination_type)];
  if (field && (record[field] === null || record[field] === undefined)) return { [field]: [`can't be blank when destination_type is ${String(record.destination_type)}`] };
  return {};
}

export const callRouterAnswers = defineResource({
  ...routing.callRouterAnswers,
  ...callRouterAnswersView,
  root: 'call_router_answer',
  plural: 'call_router_answers',
  createSchema: v.object({ name: optionalText, destination_type: oneOf(ANSWER_DESTINATIONS), ...answerFields }),
  updateSchema: v.object({ name: optionalText, destination_type: v.optional(oneOf(ANSWER_DESTINATIONS)), ...answerFields }),
  defaults: {
    name: null,
    digits: null,
    speech_keywords: [],
    destination_type: 'hangup',
    offer_id: null,
    buyer_group_id: null,
    next_call_router_id: null,
    token_values: {},
    sortable_order: null,
    enabled: true,
  },
  filters: { destination_type: { schema: oneOf(ANSWER_DESTINATIONS) }, offer_id: { schema: idParam } },
  order: { values: ['id', 'sortable_order', 'name', 'created_at', 'updated_at'], default: 'id' },
  fulltextFields: ['name', 'digits'],
  check: checkAnswer,
});
