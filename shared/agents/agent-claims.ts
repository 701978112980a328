import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { GetCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName, type TransactItem } from '../db/client.js';
import { keys } from '../db/keys.js';
import { nextId, recordCountChange, withoutKeys } from '../db/records.js';
import { closingFields, openedTimestamp, type TimestampCall } from './agent-timestamps.js';
import type { AgentCandidate } from './availability.js';

/**
 * An agent takes one call at a time (docs/resources.md, "Agents and call centers"). The call
 * engine claims an agent by turning its widget from `available` to `on_call` naming the call, and
 * releases it by turning it back to `available`, each in one transaction with the agent's
 * timestamps (closing the open one, opening the next) and their count. Both are conditional
 * updates of the widget, so two concurrent calls never both claim one agent, and a call's end
 * releases its agent once however often it is reported (and not at all once the agent set
 * another status by hand).
 */

const WIDGETS = 'agent_widgets';
const TIMESTAMPS = 'agent_timestamps';

/** At most this many agents are tried for one call (each taken one costs two writes). */
export const MAX_CLAIM_TRIES = 5;

/** The transaction items that move a widget to `status`, closing its open timestamp and opening the next. */
function statusChange(
  companyId: number,
  widget: Record<string, unknown>,
  change: { status: string; callId: number | null; timestampId: number; at: Date; condition: string; values: Record<string, unknown>; talkSeconds?: number; call?: TimestampCall },
): TransactItem[] {
  const at = change.at.toISOString();
  const agentId = Number(widget.id);
  const seen = typeof widget.agent_timestamp_id === 'number' ? widget.agent_timestamp_id : null;
  // The widget changes only from the state it was read in (its open timestamp too).
  const seenCondition = seen !== null ? '#ts = :seen' : '(attribute_not_exists(#ts) OR attribute_type(#ts, :nullType))';
  const items: TransactItem[] = [
    {
      Update: {
        TableName: tableName,
        Key: keys.record(companyId, WIDGETS, agentId),
        UpdateExpression: 'SET #status = :status, #call = :call, #changed = :at, #ts = :ts, #updated = :at',
        ConditionExpression: `attribute_exists(pk) AND ${change.condition} AND ${seenCondition}`,
        ExpressionAttributeNames: { '#status': 'system_status', '#call': 'call_id', '#changed': 'system_status_changed_at', '#ts': 'agent_timestamp_id', '#updated': 'updated_at' },
        ExpressionAttributeValues: { ...change.values, ':status': change.status, ':call': change.callId, ':at': at, ':ts': change.timestampId, ...(seen !== null ? { ':seen': seen } : { ':nullType': 'NULL' }) },
      },
    },
  ];
  if (seen !== null) {
    // The open timestamp began when the widget's status last changed.
    const closing = closingFields({ inserted_at: widget.system_status_changed_at }, change.at, change.talkSeconds);
    const names = Object.keys(closing);
    items.push({
      Update: {
        TableName: tableName,
        Key: keys.record(companyId, TIMESTAMPS, seen),
        UpdateExpression: `SET ${names.map((_, index) => `#f${index} = :f${index}`).join(', ')}`,
        ConditionExpression: 'attribute_exists(pk)',
        ExpressionAttributeNames: Object.fromEntries(names.map((name, index) => [`#f${index}`, name])),
        ExpressionAttributeValues: Object.fromEntries(names.map((name, index) => [`:f${index}`, closing[name]])),
      },
    });
  }
  const opened = openedTimestamp(change.timestampId, change.status, widget.voice_agent_id ?? agentId, change.at, { call: change.call });
  items.push(
    { Put: { TableName: tableName, Item: { ...keys.record(companyId, TIMESTAMPS, opened.id), company_id: companyId, ...opened }, ConditionExpression: 'attribute_not_exists(pk)' } },
    recordCountChange(companyId, TIMESTAMPS, 1),
  );
  return items;
}

/** Tries of a transaction DynamoDB cancelled for a concurrent transaction on the same items. */
const CONFLICT_TRIES = 4;

/**
 * Runs the transaction (built afresh per try): true when done, false when a condition failed
 * (someone else changed the widget first) or there was nothing to do. A cancellation for a
 * concurrent transaction on the same items is tried again after a short growing pause, so that of
 * racing claims one still wins; `busy` when they kept coming.
 */
async function applied(items: () => Promise<TransactItem[] | undefined>): Promise<boolean | 'busy'> {
  for (let attempt = 0; attempt < CONFLICT_TRIES; attempt++) {
    const transaction = await items();
    if (!transaction) return false;
    try {
      await db.send(new TransactWriteCommand({ TransactItems: transaction }));
      return true;
    } catch (error) {
      if (!(error instanceof TransactionCanceledException)) throw error;
      const codes = (error.CancellationReasons ?? []).map((reason) => reason.Code);
      if (codes.includes('ConditionalCheckFailed')) return false;
      if (!codes.includes('TransactionConflict')) throw error;
      await new Promise((done) => setTimeout(done, 10 * 2 ** attempt));
    }
  }
  return 'busy';
}

/** Claims the agent of `candidate` (widget as read) for `call`; false when it is not `available` any more. */
export async function claimAgent(companyId: number, candidate: AgentCandidate, call: TimestampCall, at: Date): Promise<boolean> {
  const widget = candidate.widget;
  if (!widget) return false;
  const timestampId = await nextId(companyId, TIMESTAMPS);
  const outcome = await applied(async () =>
    statusChange(companyId, widget, { status: 'on_call', callId: call.id, timestampId, at, condition: '#status = :available', values: { ':available': 'available' }, call }),
  );
  // An agent others keep claiming is skipped for this call, not waited for.
  return outcome === true;
}

/**
 * The first of `ordered` (available agents, in offer order) that could be claimed, and the ids of
 * those taken by another call between the read and the claim.
 */
export async function claimFirstAgent(companyId: number, ordered: readonly AgentCandidate[], call: TimestampCall, at: Date): Promise<{ claimed?: AgentCandidate; taken: number[] }> {
  const taken: number[] = [];
  for (const candidate of ordered.slice(0, MAX_CLAIM_TRIES)) {
    if (await claimAgent(companyId, candidate, call, at)) return { claimed: candidate, taken };
    taken.push(Number(candidate.agent.id));
  }
  return { taken };
}

/**
 * Gives the agent back after `callId` (`available` again), booking `talkSeconds` on the call's
 * timestamp. Nothing happens unless the widget is still `on_call` with this call: a second release
 * of the same call, or an agent who set another status meanwhile, changes nothing. True when this
 * released it.
 */
export async function releaseAgent(companyId: number, agentId: number, callId: number, at: Date, talkSeconds: number): Promise<boolean> {
  const outcome = await applied(async () => {
    const read = await db.send(new GetCommand({ TableName: tableName, Key: keys.record(companyId, WIDGETS, agentId), ConsistentRead: true }));
    const widget = read.Item ? withoutKeys(read.Item) : undefined;
    if (!widget || widget.system_status !== 'on_call' || widget.call_id !== callId) return undefined;
    return statusChange(companyId, widget, {
      status: 'available',
      callId: null,
      timestampId: await nextId(companyId, TIMESTAMPS),
      at,
      condition: '#status = :onCall AND #call = :held',
      values: { ':onCall': 'on_call', ':held': callId },
      talkSeconds,
    });
  });
  // A release must happen: failing here makes the carrier retry the callback that ends the leg.
  if (outcome === 'busy') throw new Error(`Agent ${agentId} could not be released after call ${callId}: concurrent transactions kept cancelling it`);
  return outcome;
}
