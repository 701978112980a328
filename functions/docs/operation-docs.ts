import { CALL_COLUMNS } from '../../shared/calls/call-view.js';
import { STAT_FIELDS } from '../../shared/calls/rollups.js';
import { WEBHOOK_LOG_COLUMNS } from '../../shared/events/webhook-logs.js';
import type { JsonSchema } from '../../shared/http/openapi/json-schema.js';
import type { OperationDoc, ResponseDoc, RowsDoc } from '../../shared/http/openapi/operation-doc.js';
import { serializerParams } from '../../shared/http/openapi/resource-operations.js';
import { buyers } from '../../shared/buyers/buyers-resource.js';
import { BID_LOG_COLUMNS } from '../../shared/bidding/bid-log.js';
import { BID_REPORT_FIELDS } from '../../shared/bidding/bid-report.js';
import { bidListSchema } from '../buyers/bids.js';
import { dataAppends } from '../../shared/data-appends/data-appends-resource.js';
import { CORS_HEADERS } from '../../shared/routing/inbound.js';
import { COLLECTION_TYPES, collectionSchema } from '../admin/collections.js';
import { changesSchema } from '../calls/call-changes.js';
import { callPageSchema, callListSchema } from '../calls/call-filters.js';
import { callLogsSchema } from '../calls/call-logs.js';
import { chargeRollupsSchema } from '../calls/charge-rollups.js';
import { callEventsSchema } from '../calls/events.js';
import { viewSchema } from '../calls/find-call.js';
import { keyPressSchema } from '../calls/key-press.js';
import { reportsSchema } from '../calls/reports.js';
import { SECURE_COLUMNS } from '../calls/secure.js';
import { CALL_READ_MAX_CALLS, CALL_READ_MAX_HOURS, statsSchema } from '../calls/stats.js';
import { STATS_GROUPS } from '../../shared/calls/grouped-stats.js';
import { updateByCallerIdSchema } from '../calls/update-by-caller-id.js';
import { suppressionListSchema } from '../contacts/blacklist-operations.js';
import { contactUpdateSchema } from '../contacts/contacts.js';
import { leadsByCallerSchema } from '../leads/caller-operations.js';
import { leadListSchema } from '../leads/lead-list.js';
import { leadUpdateSchema, leadViewSchema } from '../leads/lead-records.js';
import { leadReportsSchema } from '../leads/reports.js';
import { leadStatsSchema } from '../leads/stats.js';
import { LEAD_COLUMNS } from '../../shared/leads/lead-view.js';
import { LEAD_STAT_FIELDS } from '../../shared/leads/lead-rollups.js';
import { LOG_COLUMNS, logListSchema } from '../inbound/logs.js';
import { setActiveSchema } from '../integrations/set-active.js';
import { searchSchema } from '../numbers/search.js';
import { NUMBER_LOOKUP_COLUMNS, numberLookupSchema } from '../numbers/number-lookup.js';
import { visitorNumberSchema } from '../configuration/visitor-number.js';
import { makeCallSchema } from '../schedules/make-call.js';
import { deleteByTargetUrlSchema } from '../subscriptions/delete-by-target-url.js';
import { webhookLogListSchema, webhookLogShowSchema } from '../subscriptions/webhook-logs.js';
import { changeLogListSchema, changeLogShowSchema } from '../subscriptions/change-logs.js';
import { CHANGE_LOG_COLUMNS } from '../../shared/resources/change-log.js';
import { LEAD_RETARGET_LOG_COLUMNS } from '../../shared/leads/lead-retarget.js';
import { leadRetargetLogListSchema } from '../schedules/retarget-logs.js';
import { billingDatasetSchema, callDatasetSchema, DATASET_COLUMNS, datasetListSchema, impressionDatasetSchema, leadDatasetSchema } from '../calls/datasets.js';
import { dncCheckLogListSchema, impressionListSchema } from '../calls/reporting-logs.js';
import { CALL_DATASET_STATS, LEAD_DATASET_STATS } from '../../shared/reporting/datasets.js';
import { DNC_CHECK_LOG_COLUMNS } from '../../shared/reporting/dnc-checks.js';
import { IMPRESSION_COLUMNS } from '../../shared/reporting/number-impressions.js';

/**
 * The documentation of every operation of the route table that the resource engine does not
 * serve, by operation name: a summary, the schema the operation validates with (imported from
 * where it validates, never restated), its answer and the statuses of its own. A route added
 * to the table without an entry here fails the document's tests.
 */

const call: RowsDoc = { name: 'Call', columns: CALL_COLUMNS };
const callPath = { id: { description: "The call's id or uuid." } };
const secureCall = { secure_token: { description: "The call's secure token (SIP header svc_secure_token)." }, uuid: { description: "The call's uuid (SIP header svc_uuid)." } };

const partnerParams =
  '`caller_id`, `traffic_source_id`, `auth_token` (when the webhook requires it) and any other parameters, which are tokens for the buyers\' filters (docs/ping-post.md).';
const carrierParams = "The carrier's form fields (CallSid, From, To, CallStatus, DialCallStatus, ...), as Twilio sends them.";
const twiml = { status: 200, description: 'TwiML for the carrier; a callback about no live call gets a neutral answer, never an error.', content: { 'text/xml': { type: 'string' } } } as const;
const partnerBuyer: JsonSchema = {
  type: 'object',
  properties: {
    buyer_id: { type: 'integer' },
    id: { type: 'integer', description: 'The same as `buyer_id` (the hosted service\'s name).' },
    name: { type: ['string', 'null'] },
    bid: { type: ['number', 'null'] },
    bid_price: { type: ['number', 'null'], description: 'The same as `bid` (the hosted service\'s name).' },
    tier: { type: 'number' },
    ping_id: { type: 'string' },
  },
};
const partnerAnswer: JsonSchema = {
  type: 'object',
  properties: {
    success: { type: 'boolean' },
    status: { type: 'integer' },
    errors: { type: 'array', items: { type: 'string' }, description: 'Messages, a field\'s led by its name; empty on success (docs/compatibility.md).' },
    field_errors: { type: 'object', additionalProperties: { type: 'array', items: { type: 'string' } }, description: 'The same messages by field, on a refusal.' },
    ping_id: { type: 'string' },
    try_all_buyers_ping_id: { type: 'string' },
    buyers: { type: 'array', items: partnerBuyer },
    phone_number: { type: 'string' },
    service_number: { type: 'string' },
    trackdrive_number: { type: 'string', description: 'The same as `service_number` (the hosted service\'s name).' },
    forwarding_number: { type: 'string', description: 'The same as `service_number`: the number to forward the caller to.' },
    forwarding_number_status: { type: 'string', enum: ['accepted'] },
  },
  description: 'The partner-facing answer (docs/ping-post.md).',
};
const corsHeaders = Object.fromEntries(Object.keys(CORS_HEADERS).map((name) => [name, { description: 'CORS, for browser forms.', schema: { type: 'string' as const } }]));

const lead: RowsDoc = { name: 'Lead', columns: LEAD_COLUMNS };
const dataset: RowsDoc = { name: 'DatasetPoint', columns: DATASET_COLUMNS };
const leadPath = { id: { description: "The lead's id or uuid." } };
const callerPath = { caller_id: { description: "The caller's phone number, in any common format." } };
/** Beside the envelope of every answer of a lead token route (functions/leads/token-response.ts). */
const tokenSuccess = { success: { const: true, description: 'True; refusals carry `success: false` beside `status` and `errors` (docs/leads.md).' } } as const;
const leadIds = (description: string) => ({ type: 'array', items: { type: 'integer' }, description }) as const;
const leadSubmitAnswer: ResponseDoc = {
  record: 'lead',
  rows: lead,
  headers: corsHeaders,
  extra: {
    ...tokenSuccess,
    created: { type: 'boolean', description: 'False when the submission updated a lead the caller already had.' },
    updated_lead_ids: leadIds('The leads this submission changed.'),
    service_number_plain: { type: 'string', description: 'The number to show the caller, when asked for.' },
    sms_number_plain: { type: 'string', description: 'The number for texts, when asked for.' },
    applied_to_call_ids: leadIds('With `apply_to=calls`: the calls updated.'),
  },
};
const leadTokenAnswer: ResponseDoc = { record: 'lead', rows: lead, headers: corsHeaders, extra: { ...tokenSuccess, lead_ids: leadIds('Every lead changed; the record is the newest of them.') } };
const leadTokenParam = 'Required `lead_token` (an offer\'s or a schedule\'s) as query parameter.';
/** A contact is its caller number: its `id` is the number, not a record id. */
const contactId = { id: { type: 'string', description: 'The phone number (E.164).' } } as const;
const contact: RowsDoc = { name: 'ContactRecord', columns: ['id', 'caller_id', 'first_name', 'last_name', 'email', 'notes', 'data', 'blocked', 'blocked_at', 'lead_ids', 'leads', 'call_ids', 'calls', 'created_at', 'updated_at'], types: contactId };

const voiceStep = (summary: string): OperationDoc => ({ summary, freeParams: carrierParams, response: twiml });

export const operationDocs: Record<string, OperationDoc> = {
  'subscriptions.deleteByTargetUrl': {
    summary: 'Delete the subscriptions of a target URL',
    description: 'Removes every subscription of the company posting to `target_url`; answers with the first one removed.',
    params: deleteByTargetUrlSchema,
    response: { record: 'subscription', rows: { resource: 'subscriptions' } },
    errors: [404],
  },
  'integrations.setActive': {
    summary: 'Switch an integration on or off',
    params: setActiveSchema,
    pathParams: { id: { description: "The integration's id." } },
    response: { record: 'integration', rows: { resource: 'integrations' } },
  },
  'collections.show': {
    summary: 'A value list for pickers',
    params: collectionSchema,
    pathParams: { type: { description: 'Which list.', schema: { type: 'string', enum: COLLECTION_TYPES } } },
    response: { list: 'collection', rows: { name: 'CollectionItem', columns: ['name'] } },
  },
  'company.show': {
    summary: "The caller's company",
    description: 'Its id, name and IANA time zone (the zone date ranges of the console are read in).',
    response: { record: 'company', rows: { name: 'Company', columns: ['id', 'name', 'time_zone'], types: { name: { type: 'string' }, time_zone: { type: 'string' } } } },
    // Only if the credential outlived its company record, which no route deletes.
    errors: [404],
  },
  'inbound_webhooks.ping': {
    summary: 'Ping: which buyers would take this caller',
    freeParams: partnerParams,
    pathParams: { vanity_uri: { description: "The inbound webhook's vanity name." } },
    response: { status: 200, description: 'The bid: eligible buyers and ping ids to post with.', content: { 'application/json': partnerAnswer } },
    errors: [401, 403, 422, 429],
  },
  'inbound_webhooks.post': {
    summary: 'Post: reserve a tracking number for a pinged caller',
    freeParams: `\`ping_id\` from the ping's answer, and ${partnerParams}`,
    pathParams: { vanity_uri: { description: "The inbound webhook's vanity name." } },
    response: { status: 200, description: 'The number to dial.', content: { 'application/json': partnerAnswer } },
    errors: [401, 403, 404, 410, 422],
  },
  'inbound_webhooks.full': {
    summary: 'Full: ping and post in one request',
    description: 'Pings, then posts with the try-all ping id: the post\'s answer plus the ping\'s `buyers`; a ping that finds no buyer answers as the ping does. A post without `ping_id` does the same (docs/ping-post.md).',
    freeParams: partnerParams,
    pathParams: { vanity_uri: { description: "The inbound webhook's vanity name." } },
    response: { status: 200, description: 'The number to dial.', content: { 'application/json': partnerAnswer } },
    errors: [401, 403, 410, 422, 429],
  },
  'inbound_webhooks.preflight': {
    summary: 'CORS preflight of ping, post and full',
    pathParams: { vanity_uri: { description: "The inbound webhook's vanity name." } },
    response: { status: 204, description: 'Browser forms may call ping and post.', headers: corsHeaders },
  },
  'voice.incoming': voiceStep('Carrier webhook: a call comes in'),
  'voice.dial_action': voiceStep('Carrier webhook: a dial attempt ended'),
  'voice.dial_status': voiceStep('Carrier webhook: status of a dialled leg'),
  'voice.status': voiceStep('Carrier webhook: the call ended'),
  'voice.whisper': voiceStep('Carrier webhook: the buyer answered (whisper)'),
  'voice.whisper_result': voiceStep("Carrier webhook: the buyer's key press after the whisper"),
  'voice.outbound_answer': voiceStep('Carrier webhook: the callee of an outbound call (a lead) answered'),
  'voice.recording': voiceStep("Carrier webhook: a dial's recording is ready (call_recording_rules)"),
  'voice.router_answer': voiceStep("Carrier webhook: the caller's keys or words answering an IVR menu (call router)"),
  'voice.sms': voiceStep('Carrier webhook: a text message reached a tracking number (incoming_text_messages)'),
  'voice.key_press': voiceStep('Carrier webhook: keys pressed during a bridged call, running the matching key press flow'),
  'leads.buyerIsAvailable': {
    summary: "Would a buyer take this lead's call now",
    description:
      "The routing core's decision for a call of the lead (its schedule's offer, its tokens), nothing claimed: `buyer_is_available`, `buyers` in the order they would be tried, `excluded` with each buyer's reason, `reason` when none was considered (no_offer, blacklisted). docs/leads.md.",
    pathParams: { id: { description: "The lead's id or uuid." } },
    response: {
      status: 200,
      description: 'Whether a buyer would take the call, and why the others would not.',
      content: {
        'application/json': {
          type: 'object',
          properties: {
            buyer_is_available: { type: 'boolean' },
            lead_id: { type: 'integer' },
            buyers: { type: 'array', items: { type: 'object', properties: { buyer_id: { type: 'integer' }, name: { type: ['string', 'null'] } } } },
            excluded: { type: 'array', items: { type: 'object', properties: { buyer_id: { type: 'integer' }, reason: { type: 'string' } } } },
            reason: { type: 'string' },
          },
        },
      },
    },
    errors: [404],
  },
  'schedules.makeCall': {
    summary: 'Call a lead or a number now from a schedule',
    description:
      "Places an outbound call from a tracking number of the schedule's offer to the lead (`lead_id`: its number and tokens) or to `caller_id` (no lead is created), ignoring waits and dial conditions. When the callee answers, a buyer of the offer is chosen as for an inbound call. 422 when the schedule has no offer or the offer no number. docs/leads.md.",
    params: makeCallSchema,
    response: { record: 'call', rows: call },
    errors: [404, 422],
  },
  'inbound_webhook_logs.list': {
    summary: 'List pings and posts',
    description: 'Newest first, by cursor (`cursor=-1` or none starts at the newest); 30 days before `created_at_to` unless `created_at_from` is given.',
    params: logListSchema,
    response: { list: 'inbound_webhook_logs', rows: { name: 'InboundWebhookLog', columns: LOG_COLUMNS } },
  },
  'webhook_logs.list': {
    summary: 'List webhook delivery attempts',
    description: 'Every attempt of every subscription and outgoing webhook delivery, newest first, by cursor.',
    params: webhookLogListSchema,
    response: { list: 'webhook_logs', rows: { name: 'WebhookLog', columns: WEBHOOK_LOG_COLUMNS } },
  },
  'lead_retarget_logs.list': {
    summary: 'List what lead retargets did',
    description: 'One entry per lead a retarget moved, copied or skipped (with the reason), newest first, by cursor.',
    params: leadRetargetLogListSchema,
    response: { list: 'lead_retarget_logs', rows: { name: 'LeadRetargetLog', columns: LEAD_RETARGET_LOG_COLUMNS } },
  },
  'webhook_logs.show': {
    summary: 'Show a webhook delivery attempt',
    params: webhookLogShowSchema,
    pathParams: { id: { description: "The attempt's id.", schema: { type: 'integer', minimum: 1 } } },
    response: { record: 'webhook_log', rows: { name: 'WebhookLog', columns: WEBHOOK_LOG_COLUMNS } },
  },
  'change_logs.list': {
    summary: 'List changes made to records (audit trail)',
    description:
      "One entry per create, update and delete made through the API, written in the change's own transaction: who (`whodunnit`: the user id of an `auth_token`, else `api_key:` and the API key's last characters), which record (`item_type`, `item_id`), `event` and `object_changes` (`{field: [before, after]}`; for updates only the fields that changed; hidden values `[FILTERED]`). Newest first, by cursor; 30 days before `created_at_to` unless `created_at_from` is given; kept a year. docs/resources.md, \"Change logs\".",
    params: changeLogListSchema,
    response: { list: 'change_logs', rows: { name: 'ChangeLog', columns: CHANGE_LOG_COLUMNS } },
  },
  'change_logs.show': {
    summary: 'Show one change of a record',
    params: changeLogShowSchema,
    pathParams: { id: { description: "The entry's id.", schema: { type: 'integer', minimum: 1 } } },
    response: { record: 'change_log', rows: { name: 'ChangeLog', columns: CHANGE_LOG_COLUMNS } },
  },
  'contacts.callerBlock': {
    summary: 'Blacklist a caller',
    pathParams: { caller_id: { description: "The caller's phone number." } },
    response: { record: 'contact', rows: { name: 'Contact', columns: ['caller_id', 'blocked', 'blocked_at'] } },
    errors: [422],
  },
  'contacts.callerUnblock': {
    summary: 'Take a caller off the blacklist',
    pathParams: { caller_id: { description: "The caller's phone number." } },
    response: { record: 'contact', rows: { name: 'Contact', columns: ['caller_id', 'blocked', 'blocked_at'] } },
    errors: [422],
  },
  'contacts.suppressionList': {
    summary: 'List blacklisted callers',
    params: suppressionListSchema,
    response: { list: 'contacts', rows: { name: 'Contact', columns: ['caller_id', 'blocked', 'blocked_at'] } },
  },
  'contacts.show': { summary: 'Show a contact', description: 'One caller number across the company\'s leads and calls (docs/leads.md).', pathParams: { id: { description: 'The phone number (E.164, URL-encoded, or digits).' } }, response: { record: 'contact', rows: contact }, errors: [422] },
  'contacts.update': { summary: 'Change a contact', params: contactUpdateSchema, pathParams: { id: { description: 'The phone number.' } }, response: { record: 'contact', rows: contact } },
  'contacts.hangUpCalls': {
    summary: "Hang up a contact's calls",
    pathParams: { id: { description: 'The phone number.' } },
    response: { record: 'contact', rows: { name: 'ContactHangUps', columns: ['id', 'caller_id', 'hung_up_count', 'call_ids'], types: contactId } },
    errors: [422],
  },
  'data_append.request': {
    summary: 'Request data for a caller number',
    description: 'Asks the data provider (DATA_PROVIDER) for the data types given (`data_types`, and those of `data_append_group_id`) and records a data append charged per type in charge_rollups; 422 when no provider is configured (docs/resources.md, "Data appends and contact imports").',
    params: dataAppends.createSchema,
    response: { record: 'data_append', rows: { resource: 'data_appends' } },
    errors: [422],
  },
  'contact_imports.resume': {
    summary: 'Go on with a contact import',
    description: 'Queues the next background step of an unfinished import (one whose step was lost, e.g. local work when the service restarted) and answers the import as it stands; the rows are imported in the background, not in this request (docs/resources.md, "Data appends and contact imports"). 409 when the import is completed, failed, awaiting its upload, or a background step is running it.',
    pathParams: { id: { description: "The import's id." } },
    response: { record: 'contact_import', rows: { resource: 'contact_imports' } },
    errors: [409],
  },
  'leads.submit': {
    summary: 'Submit a lead',
    description:
      'Authorised by `lead_token` alone; parameters in the query string, form fields or JSON, mixed. Every parameter the lead table does not name is a data token (docs/leads.md). `assign_trackdrive_number` is read as `assign_service_number`, and its number is answered as `service_number_plain` and `trackdrive_number_plain` (docs/compatibility.md). Also served at `/api/v1/leads/capture`.',
    freeParams: 'lead_token, caller_id, email, data and the other parameters of the lead table; any other parameter is a data token.',
    response: leadSubmitAnswer,
    errors: [403, 404, 422],
  },
  'leads.preflight': { summary: 'CORS preflight of lead submission', response: { status: 204, description: 'Browser forms may post leads.', headers: corsHeaders } },
  'leads.list': {
    summary: 'List leads',
    description: 'Newest first: by page, or by cursor; 30 days before `created_at_to` unless `created_at_from` is given. `total_count` comes from the lead rollups (docs/leads.md).',
    params: leadListSchema,
    response: { list: 'leads', rows: lead, csv: 'also' },
  },
  'leads.new': { summary: 'A lead with its defaults', response: { record: 'lead', rows: lead, unsaved: true } },
  'leads.show': { summary: 'Show a lead', params: leadViewSchema, pathParams: leadPath, response: { record: 'lead', rows: lead } },
  'leads.update': { summary: 'Change a lead', params: leadUpdateSchema, pathParams: leadPath, response: { record: 'lead', rows: lead } },
  'leads.deleteById': { summary: 'Delete a lead by its internal id', pathParams: { id: { description: "The lead's id." } }, response: { record: 'lead', rows: lead } },
  'leads.byCallerNumber': {
    summary: "A caller's leads under a lead token",
    params: leadsByCallerSchema,
    pathParams: { lead_token: { description: "An offer's or a schedule's lead token." }, caller_number: { description: "The caller's phone number." } },
    response: { list: 'leads', rows: lead, headers: corsHeaders, extra: tokenSuccess },
  },
  'leads.reports': {
    summary: 'Lead statistics by category',
    description: 'By offer, schedule, status or traffic source, over a creation-time range (today by default), from hourly rollups.',
    params: leadReportsSchema,
    response: { list: 'reports', rows: { name: 'LeadReportRow', columns: ['category', 'value', 'name', ...LEAD_STAT_FIELDS] } },
  },
  'leads.stats': {
    summary: 'Lead statistics by category and interval',
    description: 'The rows of `leads/reports` per `interval` (hour, day, Monday-based week or month in `time_zone`); only intervals with leads have rows.',
    params: leadStatsSchema,
    response: { list: 'stats', rows: { name: 'LeadStatsRow', columns: ['interval_start', 'category', 'value', 'name', ...LEAD_STAT_FIELDS] } },
  },
  'leads.callerOptOut': { summary: "Opt a caller's lead out", freeParams: leadTokenParam, pathParams: callerPath, response: leadTokenAnswer, errors: [422] },
  'leads.callerRemove': { summary: "Remove a caller's lead", freeParams: leadTokenParam, pathParams: callerPath, response: leadTokenAnswer, errors: [422] },
  'leads.callerMoveToEnd': { summary: "Move a caller's lead to the end of its schedule", freeParams: leadTokenParam, pathParams: callerPath, response: leadTokenAnswer, errors: [422] },
  'buyers.showByUserBuyerId': {
    summary: 'Show a buyer by your own buyer id',
    pathParams: { user_buyer_id: { description: "The buyer's `user_buyer_id`." } },
    params: serializerParams(buyers),
    response: { record: 'buyer', rows: { resource: 'buyers' } },
  },
  'buyers.bids': {
    summary: "List a bidding buyer's recent bids",
    description:
      'Every ask of the buyer (real-time bidding, docs/rtb.md), newest first: where it came from (a call or a partner ping), the request URL and headers with secret items redacted, the HTTP status, latency, bid, number or SIP address, bid id, why it was left out (`reason`: timeout, error_status, invalid_answer, rejected, no_bid, below_minimum, no_number, refused, connection_error, missing_secret, invalid_request; null when the bid stood) and when the bid lapses. Kept 30 days; by cursor (`metadata.next_cursor`, 0 at the end).',
    params: bidListSchema,
    pathParams: { id: { description: "The buyer's id." } },
    response: { list: 'bids', rows: { name: 'BuyerBid', columns: BID_LOG_COLUMNS } },
    errors: [404],
  },
  'phone_numbers.search': {
    summary: 'Search numbers to buy',
    description: 'Numbers the carrier offers that no company of this deployment holds.',
    params: searchSchema,
    response: { list: 'phone_numbers', rows: { name: 'AvailableNumber', columns: ['number'] } },
  },
  'numbers.lookup': {
    summary: "The number a landing page shows (the number-replacement script's lookup)",
    description:
      "Public, called from visitors' browsers by the hosted service's number-replacement script exactly as it calls it (docs/compatibility.md, \"Number replacement script\"): `offer_key` is an offer's `offer_token`; `referrer_url` and `referrer_tokens` are base64 of the page address and of the script's tokens (a query string). Answers the offer's number to show under `number`: a number of the visitor's `traffic_source_id` when the offer has one, a ring pool's number held for the visitor (with the tokens their parameters matched) when there is a pool, else the offer's number with the lowest id. CORS echoes the page's origin with credentials allowed (the script sends withCredentials); rate-limited per offer (429).",
    params: numberLookupSchema,
    response: {
      status: 200,
      description: 'The record envelope with the number under `number`; refusals are `{status, errors}` with the same CORS headers.',
      content: {
        'application/json': {
          type: 'object',
          properties: {
            status: { type: 'integer' },
            errors: { type: 'object' },
            number: { type: 'object', properties: Object.fromEntries(NUMBER_LOOKUP_COLUMNS.map((column) => [column, {}])) },
            checksum: { type: 'string' },
            metadata: { type: 'object', properties: { root: { const: 'number' } } },
          },
        },
      },
      headers: {
        'access-control-allow-origin': { description: "The page's origin (or * without one).", schema: { type: 'string' } },
        'access-control-allow-credentials': { description: '`true` when an origin was sent.', schema: { type: 'string' } },
      },
    },
    errors: [404, 422, 429],
  },
  'numbers.lookupPreflight': {
    summary: 'CORS preflight of the number lookup',
    response: { status: 204, description: "Pages' scripts may call the number lookup.", headers: { 'access-control-allow-origin': { description: "The page's origin (or *).", schema: { type: 'string' } } } },
  },
  'ring_pools.visitorNumber': {
    summary: "A ring pool number for a landing-page visitor",
    description: 'Dynamic number insertion: one of the pool\'s numbers, held `hold_seconds` (default 1800) with the tokens the visitor\'s parameters (`visitor`, e.g. utm_source) matched in visitor_token_matchers; a call to it meanwhile inherits them (docs/call-configuration.md).',
    pathParams: { id: { description: "The ring pool's id." } },
    params: visitorNumberSchema,
    response: { record: 'visitor_number', rows: { name: 'VisitorNumber', columns: ['phone_number_id', 'number', 'ring_pool_id', 'tokens', 'held_until'] } },
    errors: [404, 422],
  },
  'number_orders.resume': {
    summary: 'Go on filling a number order',
    description: 'Buys the numbers an in_progress order still lacks, as far as one request may (docs/call-configuration.md); 409 when the order is finished or another request is filling it.',
    pathParams: { id: { description: "The order's id." } },
    response: { record: 'number_order', rows: { resource: 'number_orders' } },
    errors: [409],
  },
  'calls.list': {
    summary: 'List calls',
    description:
      'Newest first: by page, or by cursor (`cursor=-1` starts at the newest); 30 days before `created_at_to` unless `created_at_from` is given. `total_count` comes from per-day call counts without filters; filtered lists count the matching calls and leave it out past 2,000 calls to read (docs/calls.md).',
    params: callListSchema,
    response: { list: 'calls', rows: call, csv: 'also' },
  },
  'calls.byCallerNumber': {
    summary: "List a caller's calls",
    params: callPageSchema,
    pathParams: { caller_number: { description: "The caller's phone number, in any common format." } },
    response: { list: 'calls', rows: call },
  },
  'calls.live': { summary: 'List calls in progress', params: callPageSchema, response: { list: 'calls', rows: call } },
  'calls.reports': {
    summary: 'Call statistics by category',
    description:
      'Over a time range (today by default), from hourly rollups. By buyer (`category=buyer`), each row also has the real-time bidding figures (docs/rtb.md): `pings` (bid requests sent), `bids` (those that brought a bid), `wins` (calls first dialed to the bid) and `win_rate` (wins / bids); other categories leave them out.',
    params: reportsSchema,
    response: { list: 'reports', rows: { name: 'ReportRow', columns: ['category', 'value', 'name', ...STAT_FIELDS, ...BID_REPORT_FIELDS] } },
  },
  'calls.stats': {
    summary: 'Call statistics by category and interval, or by group as the hosted service groups them',
    description: [
      'Two shapes (docs/calls.md, "Reports"). With `category` and `interval` (the default): the rows of `calls/reports` per interval, each with `interval_start`, `category`, `value`, `name` and every figure.',
      "With the hosted service's `group_by` and `stat` (both needed; not with `category` or `interval`): one row per group with calls, `{group_by, group, <stat>}`, where `group` is the status, the boolean of `buyer_converted` or `offer_converted`, or when the interval (`created_at_five_minutes`, `_day`, `_week`, `_month`, in `time_zone`) starts, and the figure is named after `stat`: `count`, `revenue`, `profit` or `cost` (the traffic source payout). Statuses and booleans most calls first, intervals oldest first; `metadata` repeats `group_by` and `stat`; every group is on page 1.",
      `Five-minute groups and offer_converted by revenue, profit or cost are summed from the calls themselves: their range must be under ${CALL_READ_MAX_HOURS} hours and hold at most ${CALL_READ_MAX_CALLS} calls (else 422). The hosted filters (\`buyer_converted\`, \`in_progress\`...) are refused with 422.`,
    ].join('\n\n'),
    params: statsSchema,
    response: {
      list: 'stats',
      rows: {
        name: 'StatsRow',
        columns: ['interval_start', 'category', 'value', 'name', ...STAT_FIELDS, 'group_by', 'group', 'count', 'cost'],
        types: {
          group_by: { enum: [...STATS_GROUPS], description: 'With `group_by`: the grouping asked for.' },
          group: { type: ['string', 'boolean'], description: 'With `group_by`: a status, a boolean, or when the interval starts (ISO 8601 with the offset of `time_zone`).' },
          count: { type: 'integer', description: 'With `stat=count`: the calls of the group.' },
          cost: { type: 'number', description: 'With `stat=cost`: the traffic source payouts of the group. (`stat=revenue` and `stat=profit` show `revenue` and `profit`.)' },
        },
      },
    },
  },
  'calls.show': { summary: 'Show a call', params: viewSchema, pathParams: callPath, response: { record: 'call', rows: call } },
  'calls.events': {
    summary: "A call's events (advanced call analysis, charged)",
    description: 'Everything that happened on the call, in order. Each answer for a call of the company is charged (`GET /api/v1/charge_rollups`).',
    params: callEventsSchema,
    pathParams: callPath,
    response: { list: 'events', rows: { name: 'CallEvent', columns: ['position', 'at', 'type'] } },
  },
  'calls.update': {
    summary: 'Change a call',
    description: 'Contact fields, revenue, payout, conversions and `data`; at least one of them.',
    params: changesSchema,
    pathParams: callPath,
    response: { record: 'call', rows: call },
  },
  'calls.updateByCallerId': {
    summary: "Change a caller's newest call on an offer",
    params: updateByCallerIdSchema,
    pathParams: { caller_id: { description: "The caller's phone number." } },
    response: { record: 'call', rows: call },
  },
  'calls.sendKeyPress': { summary: 'Record a key press on a call', params: keyPressSchema, response: { record: 'call', rows: call }, errors: [404] },
  'calls.hangUp': { summary: 'Hang up a call', pathParams: callPath, response: { record: 'call', rows: call }, errors: [422] },
  'calls.secureUpdate': {
    summary: 'Change a call (secure token)',
    params: changesSchema,
    pathParams: secureCall,
    response: { record: 'call', rows: { name: 'SecureCall', columns: SECURE_COLUMNS } },
  },
  'calls.secureHangUp': { summary: 'Hang up a call (secure token)', pathParams: secureCall, response: { record: 'call', rows: { name: 'SecureCall', columns: SECURE_COLUMNS } }, errors: [422] },
  'calls.secureData': { summary: "A call's data (secure token)", pathParams: secureCall, response: { record: 'call', rows: { name: 'CallData', columns: ['uuid', 'data'] } } },
  'call_logs.list': {
    summary: 'List call log entries',
    description: 'One row per timeline entry of the calls, newest first; with `call_id` or `uuid`, every entry of that call.',
    params: callLogsSchema,
    errors: [404],
    response: { list: 'call_logs', rows: { name: 'CallLogEntry', columns: ['call_id', 'call_uuid', 'position', 'created_at', 'type', 'details'] } },
  },
  'charge_rollups.list': {
    summary: 'List charges per day',
    params: chargeRollupsSchema,
    response: { list: 'charge_rollups', rows: { name: 'ChargeRollup', columns: ['day', 'kind', 'count', 'amount', 'created_at', 'updated_at'] } },
  },
  'datasets.list': {
    summary: 'List the datasets',
    description: 'Each dataset with its path, stats, categories, intervals and parameters. docs/resources.md, "Datasets, impressions and do-not-call checks".',
    params: datasetListSchema,
    response: { list: 'datasets', rows: { name: 'Dataset', columns: ['name', 'path', 'description', 'stats', 'categories', 'intervals', 'parameters'] } },
  },
  'datasets.calls': {
    summary: 'A call statistic by interval',
    description: `From the hourly call rollups. Stats: ${Object.keys(CALL_DATASET_STATS).join(', ')}; an unknown stat is 404. With \`category\`, one point per interval and category value.`,
    params: callDatasetSchema,
    pathParams: { stat: { description: 'The statistic.', schema: { type: 'string', enum: Object.keys(CALL_DATASET_STATS) } } },
    response: { list: 'dataset', rows: dataset },
  },
  'datasets.leads': {
    summary: 'A lead statistic by interval',
    description: `From the hourly lead rollups. Stats: ${Object.keys(LEAD_DATASET_STATS).join(', ')}; an unknown stat is 404.`,
    params: leadDatasetSchema,
    pathParams: { stat: { description: 'The statistic.', schema: { type: 'string', enum: Object.keys(LEAD_DATASET_STATS) } } },
    response: { list: 'dataset', rows: dataset },
  },
  'datasets.billing': {
    summary: 'Charges by interval',
    description: 'From the daily charge rollups (UTC days); `stat` is amount or count, `category=kind` splits by charge kind.',
    params: billingDatasetSchema,
    response: { list: 'dataset', rows: dataset },
  },
  'datasets.numberImpressions': {
    summary: 'Number impressions by interval',
    description: 'Ring pool numbers given to visitors, from the daily counters (UTC days); `category` ring_pool or number.',
    params: impressionDatasetSchema,
    response: { list: 'dataset', rows: dataset },
  },
  'impressions.list': {
    summary: 'List number impressions',
    description: 'One entry per number a ring pool gave a visitor (`POST /api/v1/ring_pools/{id}/visitor_number`), newest first by cursor; 30 days before `created_at_to` unless `created_at_from` is given.',
    params: impressionListSchema,
    response: { list: 'impressions', rows: { name: 'Impression', columns: IMPRESSION_COLUMNS } },
  },
  'dnc_check_logs.list': {
    summary: 'List do-not-call checks',
    description: 'One entry per blacklist check before an outbound dial (`source=dial`) and at lead intake (`source=lead`), newest first by cursor.',
    params: dncCheckLogListSchema,
    response: { list: 'dnc_check_logs', rows: { name: 'DncCheckLog', columns: DNC_CHECK_LOG_COLUMNS } },
  },
  'docs.openapi': {
    summary: 'This OpenAPI document',
    response: { status: 200, description: 'The OpenAPI 3.1 document of this deployment.', content: { 'application/json': { type: 'object' } } },
  },
  'docs.page': {
    summary: 'The API reference page',
    response: { status: 200, description: 'A page that renders this document (its scripts are served by `/docs/assets/`).', content: { 'text/html': { type: 'string' } } },
  },
  'docs.asset': {
    summary: 'A script of the reference page',
    pathParams: { name: { description: 'The file name, with a hash of its content (the page names it).' } },
    response: { status: 200, description: 'The script; kept by caches for a year (its name changes with its content), gzipped when accepted.', content: { 'text/javascript': { type: 'string' } } },
  },
  'contact_imports.upload': {
    summary: "An upload import's file (local object storage)",
    description: 'No credentials: the path carries the token of the `upload_url` a contact import created with `source: upload` answered, when object storage has no URLs of its own (in AWS that URL is a presigned S3 PUT instead). The body is the CSV file as is, exactly `file_size` bytes, before `upload_expires_at`; the import then runs in the background (docs/resources.md, "Data appends and contact imports").',
    pathParams: { upload_token: { description: "The upload URL's token." } },
    response: { status: 200, description: 'The file is stored and its import queued; no body, as S3 answers.' },
    errors: [400, 403, 404, 409, 413],
  },
  'sound_files.audio': {
    summary: "A sound file's audio, for the carrier",
    description: 'No credentials: the path carries the file\'s unguessable playback token, which the service puts in the <Play> URLs it gives the carrier when object storage has no URLs of its own (docs/call-configuration.md).',
    pathParams: { token: { description: "The sound file's playback token." } },
    response: { status: 200, description: 'The audio bytes, with the content type they were uploaded as.', content: { 'audio/mpeg': { type: 'string', format: 'binary' }, 'audio/wav': { type: 'string', format: 'binary' } } },
  },
  'docs.home': {
    summary: 'The service root',
    response: { status: 302, description: 'Redirects to the operator console.', headers: { location: { description: 'The operator console: `/app`.', schema: { type: 'string' } } } },
  },
  'docs.console': {
    summary: 'The operator console',
    description: 'A browser app over this same API (docs/console.md): it signs in with a key pair or a user\'s `auth_token`, kept in the tab\'s sessionStorage, and calls the `/api/v1` routes with them.',
    response: { status: 200, description: 'The page that loads the console (its files are served by `/app/assets/`).', content: { 'text/html': { type: 'string' } } },
  },
  'docs.console_asset': {
    summary: "A file of the operator console",
    pathParams: { name: { description: 'The file name, with a hash of its content (the page names it).' } },
    response: { status: 200, description: 'The script or stylesheet; kept by caches for a year (its name changes with its content), gzipped when accepted.', content: { 'text/javascript': { type: 'string' }, 'text/css': { type: 'string' } } },
  },
};
