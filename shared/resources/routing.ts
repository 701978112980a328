import type { LargeFieldLimit } from '../http/input-limits.js';
import type { RouteGroup } from '../http/route-groups.js';
import { SOUND_UPLOAD_LIMIT } from '../call-config/sound-audio.js';
import { CONTACT_IMPORT_UPLOAD } from '../contact-imports/import-keys.js';
import { ALL_OPERATIONS, type CrudOperation } from './define.js';

/**
 * The routing facts of every registry resource, declared here once: its name, the route group
 * (Lambda) serving it, its operations and their paths. The route table (shared/http/routes.ts)
 * reads only this light module, so a function resolving its routes does not load every
 * resource's schemas and hooks (and their libraries): each definition file spreads its facts
 * from here and adds the rest, and each function imports only the definitions it serves.
 */
export interface ResourceRouting {
  /** Path segment under /api/v1 and storage partition name, e.g. `offer_conversions`. */
  name: string;
  /** The Lambda serving it. */
  group: RouteGroup;
  /** Operations served; the others have no route (404, or 405 where the path exists). */
  operations: readonly CrudOperation[];
  /** Path of `new` when it is not `/<name>/new` (subscriptions use webhook_subscriptions/new). */
  newPath?: string;
  /** Path of `create` when it is not `POST /<name>` (buyer groups are created at `/<name>/{id}`). */
  createPath?: string;
  /** Lists also answer as CSV (`format=csv` or a `.csv` path). */
  csv?: boolean;
  /** Create takes one large field (an upload), with a larger body than other requests. */
  createLargeField?: LargeFieldLimit;
}

const routing = <const Facts extends ResourceRouting>(facts: Facts): Facts => facts;

export const subscriptions = routing({ name: 'subscriptions', group: 'subscriptions', operations: ALL_OPERATIONS, newPath: '/api/v1/webhook_subscriptions/new' });
export const outgoingWebhookUrls = routing({ name: 'outgoing_webhook_urls', group: 'subscriptions', operations: ALL_OPERATIONS });
export const outgoingWebhooks = routing({ name: 'outgoing_webhooks', group: 'subscriptions', operations: ALL_OPERATIONS });
export const webhookManualFires = routing({ name: 'webhook_manual_fires', group: 'subscriptions', operations: ['list', 'new', 'create', 'show'] });
export const offers = routing({ name: 'offers', group: 'offers', operations: ALL_OPERATIONS, csv: true });
export const trafficSources = routing({ name: 'traffic_sources', group: 'offers', operations: ALL_OPERATIONS, csv: true });
export const offerConversions = routing({ name: 'offer_conversions', group: 'offers', operations: ALL_OPERATIONS, csv: true });
export const integrations = routing({ name: 'integrations', group: 'integrations', operations: ALL_OPERATIONS });
export const secretItems = routing({ name: 'secret_items', group: 'integrations', operations: ALL_OPERATIONS, csv: true });
export const oauthConnections = routing({ name: 'oauth_connections', group: 'integrations', operations: ALL_OPERATIONS, csv: true });
export const appConfigs = routing({ name: 'app_configs', group: 'integrations', operations: ALL_OPERATIONS, csv: true });
export const unblockContactJobs = routing({ name: 'unblock_contact_jobs', group: 'admin', operations: ['list', 'new', 'create', 'show', 'delete'] });
export const accessControlLists = routing({ name: 'access_control_lists', group: 'admin', operations: ALL_OPERATIONS });
export const adminTableExporters = routing({ name: 'admin_table_exporters', group: 'admin', operations: ALL_OPERATIONS, csv: true });
export const dataExportRecords = routing({ name: 'data_export_records', group: 'admin', operations: ['list', 'show'], csv: true });
export const adminTasks = routing({ name: 'admin_tasks', group: 'admin', operations: ALL_OPERATIONS, csv: true });
export const applicationClusters = routing({ name: 'application_clusters', group: 'admin', operations: ['list', 'new', 'create', 'show', 'update'], csv: true });
export const bigintMigrations = routing({ name: 'bigint_migrations', group: 'admin', operations: ALL_OPERATIONS, csv: true });
export const buyers = routing({ name: 'buyers', group: 'buyers', operations: ALL_OPERATIONS, csv: true });
export const buyerGroups = routing({ name: 'buyer_groups', group: 'buyers', operations: ['list', 'create', 'show', 'update', 'delete'], createPath: '/api/v1/buyer_groups/{id}' });
export const inboundWebhooks = routing({ name: 'inbound_webhooks', group: 'inbound', operations: ALL_OPERATIONS });
export const phoneNumbers = routing({ name: 'phone_numbers', group: 'numbers', operations: ['list', 'create', 'show', 'update', 'delete'] });
export const ringPools = routing({ name: 'ring_pools', group: 'numbers', operations: ALL_OPERATIONS });
export const schedules = routing({ name: 'schedules', group: 'schedules', operations: ALL_OPERATIONS, csv: true });
export const scheduleActions = routing({ name: 'schedule_actions', group: 'schedules', operations: ALL_OPERATIONS });
export const scheduleActionGroups = routing({ name: 'schedule_action_groups', group: 'schedules', operations: ALL_OPERATIONS });
export const scheduleTriggers = routing({ name: 'schedule_triggers', group: 'schedules', operations: ALL_OPERATIONS });
export const scheduleDistributions = routing({ name: 'schedule_distributions', group: 'schedules', operations: ALL_OPERATIONS });
export const scheduledCallbacks = routing({ name: 'scheduled_callbacks', group: 'schedules', operations: ALL_OPERATIONS });
export const leadRetargets = routing({ name: 'lead_retargets', group: 'schedules', operations: ALL_OPERATIONS });
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
export const numberOrderPrefixes = routing({ name: 'number_order_prefixes', group: 'numbers', operations: ALL_OPERATIONS, csv: true });
export const numberOrders = routing({ name: 'number_orders', group: 'numbers', operations: ALL_OPERATIONS, csv: true });
export const contactFields = routing({ name: 'contact_fields', group: 'contacts', operations: ALL_OPERATIONS, csv: true });
export const contactFieldValues = routing({ name: 'contact_field_values', group: 'contacts', operations: ALL_OPERATIONS, csv: true });
export const contactFieldViews = routing({ name: 'contact_field_views', group: 'contacts', operations: ALL_OPERATIONS, csv: true });
// Written by the carrier's inbound-SMS webhook only (shared/messaging/inbound-sms.ts): no create.
export const incomingTextMessages = routing({ name: 'incoming_text_messages', group: 'contacts', operations: ['list', 'show'], csv: true });
// Agents and call centers (shared/resources/agents.ts); agent widgets are made with their agent, agent timestamps by the service.
export const callCenters = routing({ name: 'call_centers', group: 'admin', operations: ALL_OPERATIONS, csv: true });
export const agentStatuses = routing({ name: 'agent_statuses', group: 'admin', operations: ALL_OPERATIONS, csv: true });
export const voiceAgents = routing({ name: 'voice_agents', group: 'admin', operations: ALL_OPERATIONS, csv: true });
export const voiceAgentFields = routing({ name: 'voice_agent_fields', group: 'admin', operations: ALL_OPERATIONS, csv: true });
export const voiceAgentFlows = routing({ name: 'voice_agent_flows', group: 'admin', operations: ALL_OPERATIONS, csv: true });
export const voiceAgentKeywords = routing({ name: 'voice_agent_keywords', group: 'admin', operations: ALL_OPERATIONS, csv: true });
export const scheduleAgents = routing({ name: 'schedule_agents', group: 'admin', operations: ALL_OPERATIONS, csv: true });
export const agentMessages = routing({ name: 'agent_messages', group: 'admin', operations: ALL_OPERATIONS, csv: true });
export const agentWidgets = routing({ name: 'agent_widgets', group: 'admin', operations: ['show', 'update'] });
export const agentTimestamps = routing({ name: 'agent_timestamps', group: 'admin', operations: ['list', 'show'], csv: true });
export const dataAppendGroups = routing({ name: 'data_append_groups', group: 'contacts', operations: ALL_OPERATIONS, csv: true });
export const dataAppends = routing({ name: 'data_appends', group: 'contacts', operations: ALL_OPERATIONS, csv: true });
// The CSV arrives in the create's body (shared/resources/contact-imports.ts bounds it); no delete: an import is history.
export const contactImports = routing({ name: 'contact_imports', group: 'contacts', operations: ['list', 'new', 'create', 'show', 'update'], createLargeField: CONTACT_IMPORT_UPLOAD, csv: true });

/** Every registry resource's routing, in the route table's order (registry.ts lists the definitions in the same order; a test checks). */
export const resourceRoutings: readonly ResourceRouting[] = [
  subscriptions,
  outgoingWebhookUrls,
  outgoingWebhooks,
  webhookManualFires,
  offers,
  trafficSources,
  offerConversions,
  integrations,
  secretItems,
  oauthConnections,
  appConfigs,
  unblockContactJobs,
  accessControlLists,
  adminTableExporters,
  dataExportRecords,
  adminTasks,
  applicationClusters,
  bigintMigrations,
  buyers,
  buyerGroups,
  inboundWebhooks,
  phoneNumbers,
  ringPools,
  schedules,
  scheduleActions,
  scheduleActionGroups,
  scheduleTriggers,
  scheduleDistributions,
  scheduledCallbacks,
  leadRetargets,
  sipHeaders,
  sipHeaderParserGroups,
  sipHeaderParsers,
  callRecordingRules,
  stateCallLimits,
  tokenMatchers,
  visitorTokenMatchers,
  callRouters,
  callRouterAnswerGroups,
  callRouterAnswers,
  callControlActions,
  keyPressFlows,
  keyPressFlowGroups,
  callDispositions,
  agentCallDispositions,
  transcriptionKeywordGroups,
  standaloneTranscriptions,
  soundFiles,
  soundPlaylists,
  offerAmdFlows,
  numberOrderPrefixes,
  numberOrders,
  contactFields,
  contactFieldValues,
  contactFieldViews,
  incomingTextMessages,
  callCenters,
  agentStatuses,
  voiceAgents,
  voiceAgentFields,
  voiceAgentFlows,
  voiceAgentKeywords,
  scheduleAgents,
  agentMessages,
  agentWidgets,
  agentTimestamps,
  dataAppendGroups,
  dataAppends,
  contactImports,
];
