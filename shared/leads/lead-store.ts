import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { GetCommand, QueryCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { randomUUID } from 'node:crypto';
import { clock } from '../adapters/clock.js';
import { db, tableName, type TransactItem } from '../db/client.js';
import { dayRecordKey } from '../db/day-records.js';
import { timeOfId, timeSortableId } from '../db/ids.js';
import { keys, padId } from '../db/keys.js';
import { getLookup, withoutKeys } from '../db/records.js';
import type { EventName } from '../events/event-names.js';
import { readWithEventConsumers } from '../events/event-consumers.js';
import { publishStaged, stageMessages } from '../events/outbox.js';
import type { QueueMessage } from '../ports/events.js';
import { ownerOf, type LeadOwner, type LeadRecord } from './lead-record.js';
import { leadRollupWrites } from './lead-rollup-store.js';
import { leadFigures } from './lead-rollups.js';
import { leadView } from './lead-view.js';

/**
 * Leads: high-volume records stored like calls, in one partition per company and UTC day (ids
 * are time-sortable, so the day is in the id and a lead is one GetItem by id), found by uuid
 * through a global lookup, by contact (caller number or e-mail) and owner through gsi2, and while
 * a step is pending through the sparse gsi1 (docs/leads.md, docs/table-design.md).
 */
export const LEADS = 'leads';

function leadKey(companyId: number, id: number) {
  return dayRecordKey(companyId, LEADS, id);
}

/** The contact a lead is found by: its caller number, else its e-mail address. */
export function contactOf(lead: Pick<LeadRecord, 'caller_id' | 'email'>): string | null {
  if (lead.caller_id) return lead.caller_id;
  if (lead.email) return `email:${lead.email.toLowerCase()}`;
  return null;
}

export function ownerSegment(owner: LeadOwner): string {
  return `${owner.kind === 'offer' ? 'o' : 's'}${owner.id}`;
}

function ownerSegmentOf(lead: LeadRecord): string {
  return ownerSegment(ownerOf(lead) ?? { kind: 'offer', id: Number(lead.offer_id) });
}

/** Due-time sort key part: epoch ms, 15 digits, so string order is time order. */
function dueKey(iso: string): string {
  return String(Math.max(0, Date.parse(iso))).padStart(15, '0');
}

function indexAttributes(companyId: number, lead: LeadRecord): Record<string, string> {
  const contact = contactOf(lead);
  const waiting = lead.status === 'active' && lead.phase !== null && lead.next_action_at !== null;
  return {
    ...(contact ? { gsi2pk: keys.leadsOfContact(companyId, contact), gsi2sk: `${ownerSegmentOf(lead)}#${padId(lead.id)}` } : {}),
    ...(waiting ? { gsi1pk: keys.leadsWaiting(companyId), gsi1sk: `${dueKey(lead.next_action_at!)}#${padId(lead.id)}` } : {}),
  };
}

/** The stored item of a lead (keys, index attributes, fields). */
export function leadItem(companyId: number, lead: LeadRecord): Record<string, unknown> {
  return { ...leadKey(companyId, lead.id), ...indexAttributes(companyId, lead), ...lead, company_id: companyId };
}

/** A fresh time-sortable lead id for `at`. */
export function newLeadId(at: Date): number {
  return timeSortableId(at.getTime());
}

const ID_ATTEMPTS = 5;

/** The writes of a new lead (the lead, first, and its uuid lookup), for a transaction of its own or another change's. */
export function leadCreateItems(companyId: number, lead: LeadRecord): TransactItem[] {
  return [
    { Put: { TableName: tableName, Item: leadItem(companyId, lead), ConditionExpression: 'attribute_not_exists(pk)' } },
    {
      Put: {
        TableName: tableName,
        Item: { ...keys.globalLookup(LEADS, 'uuid', lead.uuid), company_id: companyId, resource: LEADS, id: lead.id },
        ConditionExpression: 'attribute_not_exists(pk)',
      },
    },
  ];
}

/**
 * Writes a new lead with its uuid lookup in one transaction, with `alongside` (its events' outbox
 * items). When another lead of the company got the same id, the id is drawn again for the same
 * millisecond (alongside items must not contain it).
 */
export async function createLead(companyId: number, lead: LeadRecord, alongside: readonly TransactItem[] = []): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      await db.send(
        new TransactWriteCommand({
          TransactItems: [...leadCreateItems(companyId, lead), ...alongside],
        }),
      );
      return;
    } catch (error) {
      const reasons = error instanceof TransactionCanceledException ? (error.CancellationReasons ?? []) : [];
      if (reasons[0]?.Code === 'ConditionalCheckFailed' && attempt < ID_ATTEMPTS) {
        lead.id = timeSortableId(timeOfId(lead.id));
        continue;
      }
      throw error;
    }
  }
}

/**
 * A lead as read for a change (strongly consistent) and whether its company has event consumers
 * (shared/events/event-consumers.ts), in one BatchGetItem; undefined when no such lead.
 */
async function readLeadForChange(companyId: number, id: number): Promise<{ lead: LeadRecord; consumers: boolean } | undefined> {
  if (!Number.isSafeInteger(id) || id < 0) return undefined;
  const { item, consumers } = await readWithEventConsumers(companyId, leadKey(companyId, id));
  return item ? { lead: withoutKeys(item) as LeadRecord, consumers } : undefined;
}

export async function getLead(companyId: number, id: number): Promise<LeadRecord | undefined> {
  if (!Number.isSafeInteger(id) || id < 0) return undefined;
  const result = await db.send(new GetCommand({ TableName: tableName, Key: leadKey(companyId, id), ConsistentRead: true }));
  return result.Item ? (withoutKeys(result.Item) as LeadRecord) : undefined;
}

/** A lead by uuid, only if it belongs to `companyId` (another company's lead is not found). */
export async function getLeadByUuid(companyId: number, uuid: string): Promise<LeadRecord | undefined> {
  const lookup = await getLookup(keys.globalLookup(LEADS, 'uuid', uuid));
  if (!lookup || lookup.company_id !== companyId) return undefined;
  return getLead(companyId, lookup.id);
}

/** The Put that saves a lead's new state if its version is still `expectedVersion`. */
export function leadSavePut(companyId: number, lead: LeadRecord, expectedVersion: number): TransactItem {
  return {
    Put: {
      TableName: tableName,
      Item: leadItem(companyId, lead),
      ConditionExpression: '#version = :expected',
      ExpressionAttributeNames: { '#version': 'version' },
      ExpressionAttributeValues: { ':expected': expectedVersion },
    },
  };
}

/** Saves a lead if nobody saved another state since `expectedVersion`; false when the version moved on. */
export async function saveLead(companyId: number, lead: LeadRecord, expectedVersion: number, alongside: readonly TransactItem[] = []): Promise<boolean> {
  try {
    await db.send(new TransactWriteCommand({ TransactItems: [leadSavePut(companyId, lead, expectedVersion), ...alongside] }));
    return true;
  } catch (error) {
    const reasons = error instanceof TransactionCanceledException ? (error.CancellationReasons ?? []) : [];
    if (reasons[0]?.Code === 'ConditionalCheckFailed') return false;
    throw error;
  }
}

/**
 * A contact's leads, newest first: all of them, or those of one owner (one Query on gsi2).
 * Index reads are eventually consistent: a lead written a moment ago may be missing.
 */
export async function leadsOfContact(companyId: number, contact: string, owner?: LeadOwner, limit = 100): Promise<LeadRecord[]> {
  const result = await db.send(
    new QueryCommand({
      TableName: tableName,
      IndexName: 'gsi2',
      KeyConditionExpression: owner ? 'gsi2pk = :pk AND begins_with(gsi2sk, :owner)' : 'gsi2pk = :pk',
      ExpressionAttributeValues: { ':pk': keys.leadsOfContact(companyId, contact), ...(owner ? { ':owner': `${ownerSegment(owner)}#` } : {}) },
      ScanIndexForward: false,
      Limit: limit,
    }),
  );
  return (result.Items ?? []).map((item) => withoutKeys(item) as LeadRecord);
}

/** Active leads whose pending step was due before `before`, oldest first (the overdue-step sweeper). */
export async function overdueLeads(companyId: number, before: Date, limit = 100): Promise<LeadRecord[]> {
  const result = await db.send(
    new QueryCommand({
      TableName: tableName,
      IndexName: 'gsi1',
      KeyConditionExpression: 'gsi1pk = :pk AND gsi1sk < :before',
      ExpressionAttributeValues: { ':pk': keys.leadsWaiting(companyId), ':before': dueKey(before.toISOString()) },
      Limit: limit,
    }),
  );
  return (result.Items ?? []).map((item) => withoutKeys(item) as LeadRecord);
}

/** The outbox messages of a lead's events, as the lead will be saved. */
export function leadEvents(companyId: number, names: readonly EventName[], lead: LeadRecord, at: Date): QueueMessage[] {
  return names.map((name) => {
    const id = randomUUID();
    return { kind: 'event', id, companyId, event: { id, name, companyId, occurredAt: at.toISOString(), data: leadView(lead) } };
  });
}

export class UnknownLeadError extends Error {
  constructor(readonly companyId: number, readonly leadId: number) {
    super(`No lead ${leadId} in company ${companyId}`);
    this.name = 'UnknownLeadError';
  }
}

export interface LeadChange<T> {
  result: T;
  save: boolean;
  events?: readonly EventName[];
  /** Other queued work of the change (webhooks, e-mails, texts), in the same transaction. */
  messages?: readonly QueueMessage[];
  alongside?: readonly TransactItem[];
}

const MAX_SAVE_ATTEMPTS = 8;

/**
 * Reads a lead, lets `change` decide its next state (mutating the copy), and saves it with its
 * events in one transaction if nobody else saved meanwhile; retried on a lost race, so `change`
 * must be free of effects outside what it returns. The lead's report rollups
 * (shared/leads/lead-rollups.ts) move in the same transaction.
 */
export async function transitionLead<T>(companyId: number, leadId: number, change: (lead: LeadRecord) => Promise<LeadChange<T>> | LeadChange<T>, at: Date = clock().now()): Promise<{ result: T; lead: LeadRecord; saved: boolean }> {
  for (let attempt = 0; attempt < MAX_SAVE_ATTEMPTS; attempt++) {
    const read = await readLeadForChange(companyId, leadId);
    if (!read) throw new UnknownLeadError(companyId, leadId);
    const stored = read.lead;
    const lead = structuredClone(stored);
    const decided = await change(lead);
    if (!decided.save) return { result: decided.result, lead, saved: false };
    const version = Number(stored.version);
    lead.version = version + 1;
    lead.updated_at = at.toISOString();
    // Events only when something receives them; the change's other messages always.
    const { writes, staged } = stageMessages(companyId, [...leadEvents(companyId, read.consumers ? (decided.events ?? []) : [], lead, at), ...(decided.messages ?? [])], at);
    // Reports follow the lead: a status change or conversion moves its counts in the same write.
    const rollups = leadRollupWrites(companyId, leadFigures(stored), leadFigures(lead));
    if (await saveLead(companyId, lead, version, [...(decided.alongside ?? []), ...rollups, ...writes])) {
      await publishStaged(staged);
      return { result: decided.result, lead, saved: true };
    }
  }
  throw new Error(`Lead ${leadId} kept changing under this transition`);
}
