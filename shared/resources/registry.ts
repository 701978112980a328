import type { RouteGroup } from '../http/route-groups.js';
import { buyerGroups, buyers } from '../buyers/buyers-resource.js';
import { callRouterAnswerGroups, callRouterAnswers, callRouters } from '../call-config/call-routers-resource.js';
import { callControlActions, keyPressFlowGroups, keyPressFlows } from '../call-config/key-press-flows-resource.js';
import { agentCallDispositions, callDispositions } from '../call-config/call-dispositions-resource.js';
import { accessControlLists, unblockContactJobs } from '../admin/admin-resource.js';
import { adminTableExporters, dataExportRecords } from '../admin/admin-exports-resource.js';
import { adminTasks, applicationClusters, bigintMigrations } from '../admin/admin-records-resource.js';
import type { ResourceDefinition } from './define.js';
import { inboundWebhooks } from '../routing/inbound-webhooks-resource.js';
import { integrations } from '../integrations/integrations-resource.js';
import { appConfigs, oauthConnections, secretItems } from '../secrets/secrets-resource.js';
import { offerConversions } from '../offers/offer-conversions-resource.js';
import { offers, trafficSources } from '../offers/offers-resource.js';
import { outgoingWebhooks, outgoingWebhookUrls } from '../events/outgoing-webhooks-resource.js';
import { phoneNumbers } from '../numbers/phone-numbers-resource.js';
import { ringPools } from '../numbers/ring-pools-resource.js';
import { leadRetargets } from '../leads/lead-retargets-resource.js';
import { scheduleActions } from '../leads/schedule-actions-resource.js';
import { scheduleActionGroups, scheduleDistributions, scheduleTriggers } from '../leads/schedule-records-resource.js';
import { scheduledCallbacks } from '../leads/scheduled-callbacks-resource.js';
import { numberOrderPrefixes, numberOrders } from '../numbers/number-orders-resource.js';
import { offerAmdFlows } from '../call-config/offer-amd-flows-resource.js';
import { soundFiles, soundPlaylists } from '../call-config/sound-files-resource.js';
import { schedules } from '../leads/schedules-resource.js';
import { subscriptions } from '../events/subscriptions-resource.js';
import { standaloneTranscriptions, transcriptionKeywordGroups } from '../call-config/transcriptions-resource.js';
import { webhookManualFires } from '../events/webhook-manual-fires-resource.js';
import { sipHeaderParserGroups, sipHeaderParsers, sipHeaders } from '../call-config/sip-headers-resource.js';
import { contactFields, contactFieldValues, contactFieldViews } from '../contact-fields/contact-fields-resource.js';
import { callRecordingRules } from '../call-config/call-recording-rules-resource.js';
import { stateCallLimits } from '../call-config/state-call-limits-resource.js';
import { tokenMatchers, visitorTokenMatchers } from '../call-config/token-matchers-resource.js';
import { incomingTextMessages } from '../messaging/incoming-text-messages-resource.js';
import { agentMessages, agentStatuses, agentTimestamps, agentWidgets, callCenters, scheduleAgents, voiceAgentFields, voiceAgentFlows, voiceAgentKeywords, voiceAgents } from '../agents/agents-resource.js';
import { dataAppendGroups, dataAppends } from '../data-appends/data-appends-resource.js';
import { contactImports } from '../contact-imports/contact-imports-resource.js';

/**
 * The resource registry: every resource's full definition, for what documents or checks them all
 * (the OpenAPI document, tests, benchmarks). The route table reads routing/<group>.ts instead, and each
 * route group's function imports only its own definitions (engine.ts, groupOperations), so no
 * function but docs bundles this list.
 */
export const resources: readonly ResourceDefinition[] = [
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
  buyers,
  buyerGroups,
  inboundWebhooks,
  phoneNumbers,
  ringPools,
  numberOrderPrefixes,
  numberOrders,
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
  contactFields,
  contactFieldValues,
  contactFieldViews,
  incomingTextMessages,
  dataAppendGroups,
  dataAppends,
  contactImports,
];

export function resourcesOfGroup(group: RouteGroup): ResourceDefinition[] {
  return resources.filter((resource) => resource.group === group);
}

export function resourceByName(name: string): ResourceDefinition | undefined {
  return resources.find((resource) => resource.name === name);
}
