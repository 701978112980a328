import { randomUUID } from 'node:crypto';
import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import type { TransactItem } from '../db/client.js';
import { dayRecordPut } from '../db/day-records.js';
import { timeSortableId } from '../db/ids.js';
import type { OperationRequest } from '../http/request.js';
import { logger } from '../logger.js';
import { boundChanges, objectChanges, type ChangeEvent, type LogPolicy } from './change-diff.js';
import { updateRecord, type StoredRecord } from '../db/records.js';
import { allColumns, type ChangeAuthor, type HookContext, type ResourceDefinition } from './define.js';

export type { ChangeAuthor };

/**
 * Change logs: an audit trail of every create, update and delete the resource engine makes, one
 * day record (`change_logs`, time-sortable id, shared/db/day-records.ts) per write, put in the
 * write's own transaction so an entry exists exactly when the change does. Entries expire
 * CHANGE_LOG_RETENTION_DAYS after the change (TTL). `GET /api/v1/change_logs` lists them.
 */
export const CHANGE_LOGS = 'change_logs';

/** A year: audits look back further than delivery logs do (30 days), and one small item a write is cheap. */
export const CHANGE_LOG_RETENTION_DAYS = 365;

export const CHANGE_EVENTS = ['create', 'update', 'delete'] as const;

/** The readable columns of an entry, in the order they are shown (PaperTrail's names where it has one). */
export const CHANGE_LOG_COLUMNS = [
  'id',
  'uuid',
  'created_at',
  'company_id',
  'item_type',
  'item_id',
  'item_uuid',
  'event',
  'whodunnit',
  'user_id',
  'auth_method',
  'api_key_hint',
  'request_id',
  'object_changes',
  'truncated',
] as const;

/** Characters of the public key kept to tell API keys apart (the key itself stays out of logs). */
const API_KEY_HINT_CHARS = 4;

/** Who made the change: the user of an `auth_token`, else the API key (its company is the entry's). */
export function author(request: Pick<OperationRequest, 'auth' | 'requestId'>): ChangeAuthor {
  const hint = request.auth.publicKey ? request.auth.publicKey.slice(-API_KEY_HINT_CHARS) : null;
  const userId = request.auth.userId ?? null;
  return {
    whodunnit: userId !== null ? String(userId) : hint ? `api_key:${hint}` : null,
    user_id: userId,
    auth_method: request.auth.method,
    api_key_hint: hint,
    request_id: request.requestId ? request.requestId.slice(0, 200) : null,
  };
}

function policyOf(resource: ResourceDefinition): LogPolicy {
  return { shown: new Set(allColumns(resource)), hidden: new Set([...(resource.revealedOnWrite ?? []), ...(resource.instructions ?? [])]) };
}

interface EntryFacts {
  companyId: number;
  itemType: string;
  policy: LogPolicy;
  author: ChangeAuthor | undefined;
  now: Date;
  event: ChangeEvent;
  before: Record<string, unknown> | undefined;
  after: Record<string, unknown> | undefined;
}

/** The entry's Put, or nothing if it cannot be made: the log never fails the write. */
function entryWrites(facts: EntryFacts): TransactItem[] {
  try {
    const record = (facts.after ?? facts.before)!;
    const { changes, truncated } = boundChanges(objectChanges(facts.policy, facts.event, facts.before, facts.after));
    const entry = {
      id: timeSortableId(facts.now.getTime()),
      uuid: randomUUID(),
      created_at: facts.now.toISOString(),
      updated_at: facts.now.toISOString(),
      company_id: facts.companyId,
      item_type: facts.itemType,
      item_id: Number(record.id),
      item_uuid: typeof record.uuid === 'string' ? record.uuid : null,
      event: facts.event,
      whodunnit: null,
      user_id: null,
      auth_method: null,
      api_key_hint: null,
      request_id: null,
      ...facts.author,
      object_changes: changes,
      truncated,
      expires_at: Math.floor(facts.now.getTime() / 1000) + CHANGE_LOG_RETENTION_DAYS * 24 * 60 * 60,
    };
    return [{ Put: dayRecordPut(facts.companyId, CHANGE_LOGS, entry) }];
  } catch (error) {
    logger.error('change log: entry not written', { error, resource: facts.itemType, event: facts.event });
    return [];
  }
}

/**
 * The Put of a change's log entry, for the change's transaction (always its last item, so a
 * cancellation can be traced to it: `retryLogCollision`).
 */
export function changeLogWrites(
  resource: ResourceDefinition,
  request: Pick<OperationRequest, 'auth' | 'now' | 'requestId'>,
  event: ChangeEvent,
  before: Record<string, unknown> | undefined,
  after: Record<string, unknown> | undefined,
): TransactItem[] {
  return entryWrites({ companyId: request.auth.companyId, itemType: resource.name, policy: policyOf(resource), author: author(request), now: request.now, event, before, after });
}

/**
 * An update a hook makes on another record because of an API write (a deleted buyer leaving the
 * groups that listed it), logged as that record's update by the same author, in the update's
 * own transaction. Only the fields the hook sets are logged, and the hook sets only id lists.
 */
export async function updateWithChangeLog(
  context: HookContext,
  resource: string,
  before: StoredRecord,
  changes: Record<string, unknown>,
  lookups?: Parameters<typeof updateRecord>[4],
  /** Index entries stored and removed with the change (engine.ts `indexChanges`), not logged. */
  index: { set: Record<string, unknown>; remove: readonly string[] } = { set: {}, remove: [] },
): Promise<StoredRecord | undefined> {
  const policy: LogPolicy = { shown: new Set(Object.keys(changes)), hidden: new Set() };
  const after = { ...before, ...changes };
  return retryLogCollision(
    () => entryWrites({ companyId: context.companyId, itemType: resource, policy, author: context.author, now: context.now, event: 'update', before, after }),
    (log) => updateRecord(context.companyId, resource, before.id, { ...changes, ...index.set }, lookups, log, index.remove),
  );
}

/**
 * Runs a write whose transaction ends with a change log entry, again with a new entry when only
 * that entry's key was taken (two entries of one company in one millisecond with the same 12
 * random bits): the transaction was cancelled whole, so running it again is safe.
 */
export async function retryLogCollision<T>(log: () => TransactItem[], write: (log: TransactItem[]) => Promise<T>): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    const items = log();
    try {
      return await write(items);
    } catch (error) {
      const reasons = error instanceof TransactionCanceledException ? (error.CancellationReasons ?? []) : [];
      const onlyTheLog = reasons.length > 0 && reasons.at(-1)?.Code === 'ConditionalCheckFailed' && reasons.slice(0, -1).every((reason) => !reason.Code || reason.Code === 'None');
      if (items.length && onlyTheLog && attempt < 3) continue;
      throw error;
    }
  }
}
