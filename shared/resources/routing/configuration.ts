import { ALL_OPERATIONS } from '../define.js';
import { SOUND_UPLOAD_LIMIT } from '../../call-config/sound-audio.js';
import { routing, type ResourceRouting } from './resource-routing.js';

/** The routing facts of the resources the configuration function serves (a function imports only its own group's). */
export const sipHeaders = routing({ name: 'sip_headers', group: 'configuration', operations: ALL_OPERATIONS, csv: true });
export const sipHeaderParserGroups = routing({ name: 'sip_header_parser_groups', group: 'configuration', operations: ALL_OPERATIONS, csv: true });
export const sipHeaderParsers = routing({ name: 'sip_header_parsers', group: 'configuration', operations: ALL_OPERATIONS, csv: true });
export const callRecordingRules = routing({ name: 'call_recording_rules', group: 'configuration', operations: ALL_OPERATIONS, csv: true });
export const stateCallLimits = routing({ name: 'state_call_limits', group: 'configuration', operations: ['list', 'new', 'create', 'show'], csv: true });
export const tokenMatchers = routing({ name: 'token_matchers', group: 'configuration', operations: ALL_OPERATIONS, csv: true });
export const visitorTokenMatchers = routing({ name: 'visitor_token_matchers', group: 'configuration', operations: ALL_OPERATIONS, csv: true });
export const callRouters = routing({ name: 'call_routers', group: 'configuration', operations: ALL_OPERATIONS, csv: true });
export const callRouterAnswerGroups = routing({ name: 'call_router_answer_groups', group: 'configuration', operations: ALL_OPERATIONS, csv: true });
export const callRouterAnswers = routing({ name: 'call_router_answers', group: 'configuration', operations: ALL_OPERATIONS, csv: true });
export const callControlActions = routing({ name: 'call_control_actions', group: 'configuration', operations: ALL_OPERATIONS, csv: true });
export const keyPressFlows = routing({ name: 'key_press_flows', group: 'configuration', operations: ALL_OPERATIONS, csv: true });
export const keyPressFlowGroups = routing({ name: 'key_press_flow_groups', group: 'configuration', operations: ALL_OPERATIONS, csv: true });
export const callDispositions = routing({ name: 'call_dispositions', group: 'configuration', operations: ALL_OPERATIONS, csv: true });
export const agentCallDispositions = routing({ name: 'agent_call_dispositions', group: 'configuration', operations: ALL_OPERATIONS, csv: true });
export const transcriptionKeywordGroups = routing({ name: 'transcription_keyword_groups', group: 'configuration', operations: ALL_OPERATIONS, csv: true });
export const standaloneTranscriptions = routing({ name: 'standalone_transcriptions', group: 'configuration', operations: ['list', 'new', 'create', 'show', 'delete'], csv: true });
export const soundFiles = routing({ name: 'sound_files', group: 'configuration', operations: ALL_OPERATIONS, createLargeField: SOUND_UPLOAD_LIMIT, csv: true });
export const soundPlaylists = routing({ name: 'sound_playlists', group: 'configuration', operations: ALL_OPERATIONS, csv: true });
export const offerAmdFlows = routing({ name: 'offer_amd_flows', group: 'configuration', operations: ALL_OPERATIONS, csv: true });

/** The configuration group's resources, in the route table's order. */
export const configurationRoutings: readonly ResourceRouting[] = [sipHeaders, sipHeaderParserGroups, sipHeaderParsers, callRecordingRules, stateCallLimits, tokenMatchers, visitorTokenMatchers, callRouters, callRouterAnswerGroups, callRouterAnswers, callControlActions, keyPressFlows, keyPressFlowGroups, callDispositions, agentCallDispositions, transcriptionKeywordGroups, standaloneTranscriptions, soundFiles, soundPlaylists, offerAmdFlows];
