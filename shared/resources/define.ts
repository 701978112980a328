import type * as v from 'valibot';
import type { TransactItem } from '../db/client.js';
import type { FieldErrors } from '../http/errors.js';
import type { Key } from '../db/keys.js';
import type { QueueMessage } from '../ports/events.js';
import type { CrudOperation, ResourceRouting } from './routing/resource-routing.js';

/** A valibot schema for a resource's writable fields (an object in, an object out). */
export type FieldsSchema = v.GenericSchema<unknown, Record<string, unknown>>;

export { ALL_OPERATIONS, type CrudOperation } from './routing/resource-routing.js';

/** A list filter: a parameter that must equal the stored attribute of the same name. */
export interface ListFilter {
  schema: v.GenericSchema<unknown, unknown>;
}

/** A foreign key checked on write: the id must name a record of `resource` in the caller's company. */
export interface ForeignKey {
  resource: string;
  /** Name of the nested object the default serializer adds (e.g. `offer` for `offer_id`). */
  association?: string;
}

/**
 * Records another record names in an id list, shown in the envelope's `associations` of show,
 * create, update and delete answers (the schedule action's `integrations`). The `via` field is a
 * foreign key too: the engine refuses ids that name no record of `resource` in the caller's
 * company, so it is declared here only, not again in `foreignKeys`.
 */
export interface Association {
  resource: string;
  /** The record's attribute holding the ids (a bounded id list). */
  via: string;
  /** The brief form shown of each associated record; `{ id, name }` when omitted. */
  brief?: (record: Record<string, unknown>) => Record<string, unknown>;
}

/**
 * A field whose value must be unique. `company` lookups are scoped to the caller's company;
 * `global` ones (tokens that arrive without credentials) to the whole deployment.
 */
export interface UniqueField {
  field: string;
  scope: 'company' | 'global';
}

/** Columns that need reads of their own (live counters, group membership), for a whole page. */
export type Enricher = (context: HookContext, records: readonly Record<string, unknown>[]) => Promise<Map<number, Record<string, unknown>>>;

/**
 * What showing a stored record needs, and nothing of its write side: the serializer, the list's
 * CSV and admin table exports (shared/admin/table-export.ts) read only this. Declared in
 * each domain's <name>-view.ts, which imports no schemas and no write behaviour, so a function that
 * serializes any resource bundles only views; each definition takes these facts from its view.
 */
export interface ResourceView {
  name: string;
  /** The `type` column. */
  type: string;
  /** Readable columns beyond the common ones, in the order they are shown. */
  columns: readonly string[];
  /** Columns derived from the stored record when it is shown. Pure. */
  derive?: (record: Record<string, unknown>) => Record<string, unknown>;
  /**
   * Foreign keys: checked on write (the id must name a record of the caller's company), and
   * those with an `association` shown as nested objects.
   */
  foreignKeys?: Record<string, ForeignKey>;
  /** The enricher, loaded on first use (it reads the table). */
  enrich?: () => Promise<Enricher>;
  /**
   * Records hidden from list, show, update, delete and exports while they wait to be removed in
   * the background; undefined when none are (a list then keeps its unfiltered reads). Read once
   * per request, so keep it to one small read.
   */
  hiddenRecords?: (companyId: number) => Promise<HiddenRecords | undefined>;
}

/** A condition a create's transaction checks (a ConditionCheck item), and the errors of a 422 when it fails. */
export interface CreateCheck {
  check: TransactItem;
  errors: FieldErrors;
}

/** Hooks of a resource that read or write beyond its own record. */
export interface ResourceBehaviour {
  /** Turns validated create input into the fields to store (copying another record...). */
  prepareCreate?: (context: HookContext, fields: Record<string, unknown>) => Promise<Record<string, unknown>>;
  /**
   * Effects after a successful create or update (invitations, counter resets). May return fields
   * it stored on the record meanwhile (what a lead retarget did), so the answer shows them.
   */
  afterWrite?: (context: HookContext, change: { before?: Record<string, unknown>; after: Record<string, unknown>; fields: Record<string, unknown> }) => Promise<void | Record<string, unknown>>;
  /**
   * Takes hold of what a new record stands for outside the table (buys a phone number), once
   * every check has passed, just before the write; sees the record to be written and the fields
   * sent (instructions included). Returns fields to store with the record and how to give it
   * back, which the engine calls when the write fails (a taken unique value). When the hook chose
   * a unique value itself and a concurrent create took it, the engine calls it again with the
   * next `attempt` (the taken value is then visible to its checks).
   */
  acquire?: (
    context: HookContext,
    draft: { record: Record<string, unknown>; fields: Record<string, unknown>; attempt: number },
  ) => Promise<{ fields: Record<string, unknown>; release: () => Promise<void> }>;
  /**
   * Queued work the write stands for (e-mails to invite, webhooks to fire), decided on the record
   * as it will be: written to the outbox in the write's own transaction and published after it
   * commits, so the work exists exactly when the write does (shared/events/outbox.ts).
   */
  messages?: (context: HookContext, change: { before?: Record<string, unknown>; after: Record<string, unknown>; fields: Record<string, unknown> }) => Promise<QueueMessage[]>;
  /**
   * Fields an update stores beyond those sent, decided from the record before it and the fields
   * sent, instructions included (a rotated secret, the state a re-enabled subscription clears).
   */
  prepareUpdate?: (context: HookContext, before: Record<string, unknown>, fields: Record<string, unknown>) => Promise<Record<string, unknown>>;
  /**
   * Conditions on other records that the create's own transaction checks, each with the 422 it
   * answers when it fails: what `prepareCreate` read may have changed by the time the record is
   * written (a contact value's field deleted meanwhile, its cleanup already done).
   */
  createChecks?: (context: HookContext, record: Record<string, unknown>) => CreateCheck[];
  /**
   * Items written in the delete's own transaction: the mark of work the delete leaves to the
   * background (a deleted contact field's values), so that work exists exactly when the delete does.
   */
  deleteWrites?: (context: HookContext, record: Record<string, unknown>) => TransactItem[];
  /** Effects after a delete (taking the record out of other records' lists, queueing the work `deleteWrites` marked). */
  afterDelete?: (context: HookContext, record: Record<string, unknown>) => Promise<void>;
}

/**
 * Records of a resource that are being removed in the background (the values of a deleted
 * contact field): the predicate that hides them, and the stored attributes it reads.
 */
export interface HiddenRecords {
  hides: (record: Record<string, unknown>) => boolean;
  attributes: readonly string[];
}

/** What hooks see of the request. */
/** Who made a change, as its entry tells it. */
export interface ChangeAuthor {
  whodunnit: string | null;
  user_id: number | null;
  auth_method: string;
  api_key_hint: string | null;
  request_id: string | null;
}

export interface HookContext {
  companyId: number;
  userId?: number;
  now: Date;
  /** Who made the API write, for the change log entries of records a hook changes in turn. */
  author?: ChangeAuthor;
}

/**
 * One declaration per API resource. The CRUD engine serves every operation from this; its routing
 * facts (name, group, operations, paths) come from routing/<group>.ts, which the route table reads without
 * loading this; behaviour comes as hooks, not copies.
 */
export interface ResourceDefinition extends ResourceRouting, ResourceView {
  /** Envelope root node of one record, e.g. `offer_conversion`. */
  root: string;
  /**
   * The root node of one particular record when it depends on a field of the record (a schedule
   * action's root is its kind: `action_dial`, `action_wait`): `prefix` and the field's value, when
   * that is one of `values`; `root` otherwise. Declared, not computed, so that the OpenAPI
   * document can list every root an answer may use (`recordRoots`).
   */
  rootByField?: { field: string; prefix: string; values: readonly string[] };
  /** The envelope's `associations`, by name (a schedule action's `integrations`); resolved by the engine. */
  associations?: Record<string, Association>;
  /** Envelope root node of a list. */
  plural: string;
  /** The list's records under this root too, beside `plural` (a name the hosted service's clients read; docs/compatibility.md). */
  listAlsoAs?: string;
  createSchema: FieldsSchema;
  updateSchema: FieldsSchema;
  /** Field values `new` shows and `create` starts from. */
  defaults: Record<string, unknown>;
  /** Allowed `order` values; without it `order` is not a parameter of the resource. */
  order?: { values: readonly [string, ...string[]]; default: string };
  /**
   * Order values computed when a record is shown (live counters from `enrich`, `derive` columns),
   * not stored: a numbered page ordered by one of them shows the whole set to sort it. Other
   * orders read only the attributes they sort and filter by, and show only the page.
   */
  computedOrder?: readonly string[];
  /** Default sort when no `order` applies: attribute and direction. */
  defaultSort?: { attribute: string; direction: 'asc' | 'desc' };
  /** Resource-specific list filters, by parameter name. */
  filters?: Record<string, ListFilter>;
  /** Attributes `fulltext` searches. */
  fulltextFields?: readonly string[];
  /** Allowed `serializer` values; the first is the default, `*_grid` ones return flat foreign keys. */
  serializers?: readonly [string, ...string[]];
  unique?: readonly UniqueField[];
  /**
   * Attributes copied into every unique lookup item of the record (a tracking number's routing
   * fields), so one GetItem of the lookup answers. Written on create, re-written in the update's
   * transaction when they change, deleted with the record.
   */
  lookupAttributes?: (record: Record<string, unknown>) => Record<string, unknown>;
  /**
   * Secondary index entries (gsi1pk/gsi1sk, gsi2pk/gsi2sk) the record is stored with, decided
   * from the record as it will be, so a Query of one index partition reads only the records it
   * lists (a tracking number in its offer's and its pool's). Written on create and on every
   * update; an entry the record no longer has is removed (a sparse index), and it goes with the
   * record. Pure.
   */
  indexAttributes?: (companyId: number, record: Record<string, unknown>) => Record<string, string>;
  /**
   * Values computed on create that the client cannot set (tokens, owner), or that it left out
   * and the record needs (a webhook's vanity name); sees the record as sent, with its defaults.
   */
  generate?: (context: HookContext, draft: Readonly<Record<string, unknown>>) => Record<string, unknown>;
  /**
   * Stored attributes shown only in the response of the write that set them (a webhook signing
   * secret at creation and rotation), never by show, list or CSV.
   */
  revealedOnWrite?: readonly string[];
  /** Rules across fields, checked on the record as it will be after the write. */
  check?: (record: Record<string, unknown>) => Record<string, string[]>;
  /** Fields the schemas accept that are instructions, not stored values (`reset_total_caps`). */
  instructions?: readonly string[];
  /** Items that live and die with a record (a buyer's counters), deleted in the same transaction. */
  companions?: (companyId: number, id: number) => Key[];
  /**
   * Behaviour that needs I/O, loaded on first use so that declarations stay pure data (the CDK
   * app and the route table read them without a database).
   */
  behaviour?: () => Promise<ResourceBehaviour>;
}

/** The columns every resource begins with (the reference's common columns). */
export const COMMON_COLUMNS = [
  'id',
  'legacy_id',
  'type',
  'uuid',
  'created_at',
  'updated_at',
  'deleted_at',
  'user_updated_at',
  'routes_show_path',
  'routes_edit_path',
  'external_record_id',
] as const;

export function defineView(view: ResourceView): ResourceView {
  return view;
}

export function defineResource(definition: ResourceDefinition): ResourceDefinition {
  return definition;
}

/** Every column a resource can show, common columns first. */
/** The root node of one record: the resource's, unless its `rootByField` names another. */
export function rootOfRecord(resource: Pick<ResourceDefinition, 'root' | 'rootByField'>, record: Record<string, unknown>): string {
  const by = resource.rootByField;
  const value = by ? record[by.field] : undefined;
  return by && typeof value === 'string' && by.values.includes(value) ? `${by.prefix}${value}` : resource.root;
}

/** Every root node a record of the resource may be answered under, `root` first. */
export function recordRoots(resource: Pick<ResourceDefinition, 'root' | 'rootByField'>): string[] {
  const by = resource.rootByField;
  return [resource.root, ...(by ? by.values.map((value) => `${by.prefix}${value}`) : [])];
}

export function allColumns(resource: ResourceView): string[] {
  return [...COMMON_COLUMNS, ...resource.columns];
}

/** The foreign keys the engine checks on write: the declared ones and every association's id list. */
export function checkedForeignKeys(resource: ResourceDefinition): Record<string, ForeignKey> {
  const viaAssociations = Object.values(resource.associations ?? {}).map((association) => [association.via, { resource: association.resource }] as const);
  return { ...Object.fromEntries(viaAssociations), ...resource.foreignKeys };
}

export function supports(resource: ResourceDefinition, operation: CrudOperation): boolean {
  return resource.operations.includes(operation);
}
