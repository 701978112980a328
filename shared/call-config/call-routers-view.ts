import { defineView } from '../resources/define.js';
import * as routing from '../resources/routing/configuration.js';

/** How the resources of call-routers-resource.ts are shown (their views); their write side stays there. Imports no schema. */

export const callRoutersView = defineView({
  name: routing.callRouters.name,
  type: 'CallRouter',
  columns: [
    'company_id',
    'name',
    'prompt_text',
    'invalid_input_text',
    'sound_file_id',
    'sound_playlist_id',
    'max_digits',
    'timeout_seconds',
    'speech_enabled',
    'max_repeats',
    'default_call_router_answer_id',
    'call_router_answer_ids',
    'call_router_answer_group_ids',
    'offer_id',
    'offer',
    'phone_number_id',
    'enabled',
  ],
  foreignKeys: {
    sound_file_id: { resource: 'sound_files' },
    sound_playlist_id: { resource: 'sound_playlists' },
    default_call_router_answer_id: { resource: 'call_router_answers' },
    call_router_answer_ids: { resource: 'call_router_answers' },
    call_router_answer_group_ids: { resource: 'call_router_answer_groups' },
    offer_id: { resource: 'offers', association: 'offer' },
    phone_number_id: { resource: 'phone_numbers' },
  },
});

export const callRouterAnswerGroupsView = defineView({
  name: routing.callRouterAnswerGroups.name,
  type: 'CallRouterAnswerGroup',
  columns: ['company_id', 'name', 'description', 'call_router_answer_ids'],
  foreignKeys: { call_router_answer_ids: { resource: 'call_router_answers' } },
});

export const callRouterAnswersView = defineView({
  name: routing.callRouterAnswers.name,
  type: 'CallRouterAnswer',
  columns: ['company_id', 'name', 'digits', 'speech_keywords', 'destination_type', 'offer_id', 'buyer_group_id', 'next_call_router_id', 'token_values', 'sortable_order', 'enabled'],
  foreignKeys: {
    offer_id: { resource: 'offers' },
    buyer_group_id: { resource: 'buyer_groups' },
    next_call_router_id: { resource: 'call_routers' },
  },
});
