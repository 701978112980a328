import type { ResourceView } from './define.js';
import { subscriptionsView } from '../events/subscriptions-view.js';
import { outgoingWebhooksView, outgoingWebhookUrlsView } from '../events/outgoing-webhooks-view.js';
import { webhookManualFiresView } from '../events/webhook-manual-fires-view.js';
import { offersView, trafficSourcesView } from '../offers/offers-view.js';
import { offerConversionsView } from '../offers/offer-conversions-view.js';
import { integrationsView } from '../integrations/integrations-view.js';
import { appConfigsView, oauthConnectionsView, secretItemsView } from '../secrets/secrets-view.js';
import { accessControlListsView, unblockContactJobsView } from '../admin/admin-view.js';
import { adminTableExportersView, dataExportRecordsView } from '../admin/admin-exports-view.js';
import { adminTasksView, applicationClustersView, bigintMigrationsView } from '../admin/admin-records-view.js';
import { buyerGroupsView, buyersView } from '../buyers/buyers-view.js';
import { inboundWebhooksView } from '../routing/inbound-webhooks-view.js';
import { phoneNumbersView } from '../numbers/phone-numbers-view.js';
import { ringPoolsView } from '../numbers/ring-pools-view.js';
import { schedulesView } from '../leads/schedules-view.js';
import { scheduleActionsView } from '../leads/schedule-actions-view.js';
import { scheduleActionGroupsView, scheduleDistributionsView, scheduleTriggersView } from '../leads/schedule-records-view.js';
import { scheduledCallbacksView } from '../leads/scheduled-callbacks-view.js';
import { leadRetargetsView } from '../leads/lead-retargets-view.js';
import { sipHeaderParserGroupsView, sipHeaderParsersView, sipHeadersView } from '../call-config/sip-headers-view.js';
import { callRecordingRulesView } from '../call-config/call-recording-rules-view.js';
import { stateCallLimitsView } from '../call-config/state-call-limits-view.js';
import { tokenMatchersView, visitorTokenMatchersView } from '../call-config/token-matchers-view.js';
import { callRouterAnswerGroupsView, callRouterAnswersView, callRoutersView } from '../call-config/call-routers-view.js';
import { callControlActionsView, keyPressFlowGroupsView, keyPressFlowsView } from '../call-config/key-press-flows-view.js';
import { agentCallDispositionsView, callDispositionsView } from '../call-config/call-dispositions-view.js';
import { standaloneTranscriptionsView, transcriptionKeywordGroupsView } from '../call-config/transcriptions-view.js';
import { soundFilesView, soundPlaylistsView } from '../call-config/sound-files-view.js';
import { offerAmdFlowsView } from '../call-config/offer-amd-flows-view.js';
import { numberOrderPrefixesView, numberOrdersView } from '../numbers/number-orders-view.js';
import { contactFieldsView, contactFieldValuesView, contactFieldViewsView } from '../contact-fields/contact-fields-view.js';
import { incomingTextMessagesView } from '../messaging/incoming-text-messages-view.js';
import { agentMessagesView, agentStatusesView, agentTimestampsView, agentWidgetsView, callCentersView, scheduleAgentsView, voiceAgentFieldsView, voiceAgentFlowsView, voiceAgentKeywordsView, voiceAgentsView } from '../agents/agents-view.js';
import { dataAppendGroupsView, dataAppendsView } from '../data-appends/data-appends-view.js';
import { contactImportsView } from '../contact-imports/contact-imports-view.js';

/**
 * Every resource's view (what showing a record needs), by name: for what serializes a resource it
 * does not serve, an admin table export. It loads no schema and no write behaviour, so a function
 * importing it bundles far less than the full registry (registry.ts); each definition takes its
 * view's facts, and test/unit/view-registry.test.ts checks they are the same objects.
 */
export const views: readonly ResourceView[] = [
  subscriptionsView,
  outgoingWebhookUrlsView,
  outgoingWebhooksView,
  webhookManualFiresView,
  offersView,
  trafficSourcesView,
  offerConversionsView,
  integrationsView,
  secretItemsView,
  oauthConnectionsView,
  appConfigsView,
  unblockContactJobsView,
  accessControlListsView,
  adminTableExportersView,
  dataExportRecordsView,
  adminTasksView,
  applicationClustersView,
  bigintMigrationsView,
  buyersView,
  buyerGroupsView,
  inboundWebhooksView,
  phoneNumbersView,
  ringPoolsView,
  schedulesView,
  scheduleActionsView,
  scheduleActionGroupsView,
  scheduleTriggersView,
  scheduleDistributionsView,
  scheduledCallbacksView,
  leadRetargetsView,
  sipHeadersView,
  sipHeaderParserGroupsView,
  sipHeaderParsersView,
  callRecordingRulesView,
  stateCallLimitsView,
  tokenMatchersView,
  visitorTokenMatchersView,
  callRoutersView,
  callRouterAnswerGroupsView,
  callRouterAnswersView,
  callControlActionsView,
  keyPressFlowsView,
  keyPressFlowGroupsView,
  callDispositionsView,
  agentCallDispositionsView,
  transcriptionKeywordGroupsView,
  standaloneTranscriptionsView,
  soundFilesView,
  soundPlaylistsView,
  offerAmdFlowsView,
  numberOrderPrefixesView,
  numberOrdersView,
  contactFieldsView,
  contactFieldValuesView,
  contactFieldViewsView,
  incomingTextMessagesView,
  callCentersView,
  agentStatusesView,
  voiceAgentsView,
  voiceAgentFieldsView,
  voiceAgentFlowsView,
  voiceAgentKeywordsView,
  scheduleAgentsView,
  agentMessagesView,
  agentWidgetsView,
  agentTimestampsView,
  dataAppendGroupsView,
  dataAppendsView,
  contactImportsView,
];

export function viewByName(name: string): ResourceView | undefined {
  return views.find((view) => view.name === name);
}
