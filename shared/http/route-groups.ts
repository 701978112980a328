/**
 * Route groups: each is one Lambda function, whose folder under functions/ has the same name,
 * with the DynamoDB actions it may perform on the table (least privilege, read by the CDK stack).
 */
export interface RouteGroupDefinition {
  description: string;
  tableActions: readonly string[];
  /**
   * Ports beyond the table the group's function uses; the stack wires and permits each.
   * `objects`: object storage, reading, writing and deleting sound files' audio; `object_reads`:
   * reading it only (presigned URLs are signed with the function's own role). `encryption`: the
   * stack's KMS key for values stored encrypted (kms:Encrypt only: nothing served reads them back).
   * `exports`: object storage under the `exports/` prefix only (admin table exports' CSV files:
   * written, presigned for reading, deleted with their exporter). `imports`: object storage under
   * the `imports/` prefix, PutObject only (contact imports' upload URLs are presigned PUTs).
   */
  ports?: readonly ('email' | 'numbers' | 'events' | 'telephony' | 'carrier' | 'scheduler' | 'transcription' | 'objects' | 'object_reads' | 'encryption' | 'exports' | 'imports')[];
}

/** Resolving credentials needs one GetItem; every authenticated function has it. */
const AUTH = ['dynamodb:GetItem'] as const;

/** The CRUD engine: reads, transactional writes of records, lookups and counters. */
const CRUD = [
  ...AUTH,
  'dynamodb:BatchGetItem',
  'dynamodb:Query',
  'dynamodb:PutItem',
  'dynamodb:UpdateItem',
  'dynamodb:DeleteItem',
  'dynamodb:ConditionCheckItem',
] as const;

export const routeGroups = {
  // events: manual fires queue their sends through the outbox.
  subscriptions: { description: 'Event subscriptions, outgoing webhooks and their URLs, manual webhook fires, webhook logs, change logs', tableActions: CRUD, ports: ['events'] },
  offers: { description: 'Offers, traffic sources and traffic source payouts', tableActions: CRUD },
  // encryption: secret values and OAuth tokens are encrypted with the stack's KMS key before they are stored.
  integrations: { description: 'Integrations with external systems, their secrets, OAuth connections and app configs', tableActions: CRUD, ports: ['encryption'] },
  // events: team invitations go out through the outbox and the delivery function.
  buyers: { description: 'Buyers, buyer groups and their live counters', tableActions: CRUD, ports: ['events'] },
  // carrier: the carrier's auth token, to check the signature of its webhooks; telephony: key press
  // transfers and hang-ups; transcription: a stored recording starts its transcription
  // (shared/call-config/recording-effects.ts); object_reads: the sounds calls play are presigned
  // S3 URLs, signed with this function's role.
  voice: { description: 'Voice carrier webhooks driving the call state machine', tableActions: CRUD, ports: ['events', 'carrier', 'telephony', 'transcription', 'object_reads'] },
  inbound: { description: 'Inbound webhooks: ping, post, their logs, and their configuration', tableActions: CRUD },
  contacts: {
    description: 'Contacts (one caller across leads and calls), the company blacklist',
    tableActions: CRUD,
    // scheduler: a contact import of leads enters them into their schedule as POST /api/v1/leads does,
    // and an import past its budget queues its next step on the scheduler's queue; imports: upload URLs.
    ports: ['events', 'telephony', 'scheduler', 'imports'],
  },
  // Lead submission (lead_token, no Basic auth) and the leads API; schedule leads hand their steps to the scheduler.
  leads: { description: 'Lead submission and the leads API: lists, reports, opt-out, removal, schedule position', tableActions: CRUD, ports: ['events', 'scheduler'] },
  schedules: { description: 'Schedules, their actions, triggers, distributions and callbacks; lead retargets; make_call', tableActions: CRUD, ports: ['events', 'scheduler', 'telephony'] },
  // The call engine's configuration (docs/call-configuration.md): IVR routers, key press flows, SIP
  // headers, recording rules, state limits, token matchers, sounds, AMD flows, dispositions.
  // events: a disposition changes its call (call_changed); scheduler: `end_of_schedule` moves the
  // call's lead; transcription: standalone transcriptions start Transcribe jobs (a carrier recording is
  // copied to S3 first, with the carrier's settings the stack wires for this port); objects: sound
  // files' audio (uploads, the carrier's downloads, deletes).
  configuration: {
    description: 'Call configuration: IVR routers, key press flows, SIP headers, recording rules, state call limits, token matchers, sounds, AMD flows, dispositions',
    tableActions: CRUD,
    ports: ['events', 'scheduler', 'transcription', 'objects'],
  },
  // exports: admin table exports write their CSV files under the exports/ prefix of the object storage.
  admin: { description: 'Teams, blacklist unblock jobs, collections, agents and call centers; company administration: table exports, tasks, clusters, migrations', tableActions: CRUD, ports: ['exports'] },
  numbers: { description: 'Tracking numbers (bought and released through the number provider) and number pools', tableActions: CRUD, ports: ['numbers'] },
  calls: {
    description: 'Calls: lists, updates, key presses and hang-ups, secure endpoints, call logs, charge rollups',
    // No deletes: calls are never removed through the API. PutItem makes the cursor key on first use.
    tableActions: [...AUTH, 'dynamodb:BatchGetItem', 'dynamodb:Query', 'dynamodb:PutItem', 'dynamodb:UpdateItem'],
    ports: ['events', 'telephony'],
  },
  // No table: the document and the page are made from code, and nothing is authenticated.
  docs: { description: 'The API describing itself: the OpenAPI document and the reference page', tableActions: [] },
} as const satisfies Record<string, RouteGroupDefinition>;

export type RouteGroup = keyof typeof routeGroups;
