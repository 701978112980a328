import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { clock } from '../adapters/clock.js';
import type { TransactItem } from '../db/client.js';
import type { EventName } from '../events/event-names.js';
import { readWithEventConsumers } from '../events/event-consumers.js';
import { publishStaged, stageMessages } from '../events/outbox.js';
import type { ClaimChoice, ClaimInSave } from '../routing/claim.js';
import { callKey, claimRefusal, saveCall, storedCall, type CallRecord } from './call-store.js';
import type { Call } from './call-states.js';
import { callEvents } from './call-timeline.js';

/**
 * How every move of the state machine (call-states.ts) is saved: the call is read, the stage
 * decides its next state, and it is saved with a version check, its events in the outbox and its
 * buyer's claim in the same transaction; a save that lost a race is decided again.
 */
const MAX_SAVE_ATTEMPTS = 8;
/** Saves of one transition its claim may have refused (a few buyers' worth of claimInSave's own tries). */
const MAX_CLAIM_REFUSALS = 100;


/** A transition named a call that does not exist (for that company): callers answer neutrally. */
export class UnknownCallError extends Error {
  constructor(readonly companyId: number, readonly callId: number) {
    super(`No call ${callId} in company ${companyId}`);
    this.name = 'UnknownCallError';
  }
}

/** A call as read for a change (strongly consistent), and whether its company has event consumers (event-consumers.ts). */
export interface CallForChange {
  call: CallRecord;
  consumers: boolean;
}

/** The call and its company's event consumer counts in one BatchGetItem (strongly consistent); undefined when no such call. */
export async function readCallForChange(companyId: number, callId: number): Promise<CallForChange | undefined> {
  const { item, consumers } = await readWithEventConsumers(companyId, callKey(companyId, callId));
  return item ? { call: storedCall(item), consumers } : undefined;
}

/** Reads a call, lets `change` decide its next state, saves it if nobody else did meanwhile. */
export async function transition<T>(
  companyId: number,
  callId: number,
  change: (call: Call) => Promise<{
    result: T;
    save: boolean;
    alongside?: Array<Record<string, unknown>>;
    undo?: () => Promise<void>;
    events?: readonly EventName[];
    /** Effects of the saved change, run beside the publishing of its events (one step, not two). */
    afterSave?: () => Promise<unknown>;
    /**
     * Writes that ride in the save's transaction when their own conditions hold (a blind counter
     * update); when those fail the call is saved without them and `otherwise` runs after the save.
     */
    optional?: { writes: TransactItem[]; otherwise: () => Promise<unknown> };
    /**
     * A buyer's reservation (shared/routing/claim.ts, claimInSave), written with the save or not at
     * all. When its condition alone cancels the save, `refused` runs and the change is decided
     * again from the same read of the call (nothing was written).
     */
    claim?: { write: TransactItem; refused: (conflict: boolean) => Promise<void> };
  }>,
  at: Date = clock().now(),
  /** The call as the caller just read it (consistently, with its company's event consumers): the first try saves reading it again. */
  first?: CallForChange,
): Promise<{ result: T; call: Call; saved: boolean }> {
  let known = first;
  let refusals = 0;
  for (let attempt = 0; attempt < MAX_SAVE_ATTEMPTS; attempt++) {
    const read = known ?? (await readCallForChange(companyId, callId));
    known = undefined;
    if (!read) throw new UnknownCallError(companyId, callId);
    const stored = read.call;
    const call = structuredClone(stored) as Call;
    const decided = await change(call);
    if (!decided.save) return { result: decided.result, call, saved: false };
    const version = Number(stored.version);
    call.version = version + 1;
    call.updated_at = clock().now().toISOString();
    // The events go into the outbox in the save's own transaction: they exist exactly when the change
    // does (when the company has anything that receives them, event-consumers.ts).
    const { writes, staged } = stageMessages(companyId, callEvents(companyId, read.consumers ? (decided.events ?? []) : [], call, at), at);
    const optional = decided.optional;
    const claim = decided.claim;
    // The claim right after the optional writes, so its cancellation reason has a known place.
    const save = (withOptional: boolean) =>
      saveCall(companyId, call, version, [...(withOptional ? (optional?.writes ?? []) : []), ...(claim ? [claim.write] : []), ...(decided.alongside ?? []), ...writes], stored);
    const claimAt = (withOptional: boolean) => 1 + (withOptional && optional ? optional.writes.length : 0);
    let fellBack = false;
    let saved: boolean;
    try {
      try {
        saved = await save(true);
      } catch (error) {
        if (!optional || !cancelledByCondition(error, 1, optional.writes.length) || claimRefusal(error, claimAt(true))) throw error;
        // Only the optional writes' conditions failed (the transaction wrote nothing): save without them.
        fellBack = true;
        saved = await save(false);
      }
    } catch (error) {
      const refusal = claim ? claimRefusal(error, claimAt(!fellBack)) : undefined;
      if (!claim || !refusal) throw error;
      // The claim alone was refused: nothing was written and the call is as read; decide again.
      await claim.refused(refusal === 'conflict');
      known = read;
      // Not a lost save: claimInSave bounds its own tries (and this, a change that made a new one each time).
      if (++refusals <= MAX_CLAIM_REFUSALS) attempt--;
      continue;
    }
    if (saved) {
      await Promise.all([publishStaged(staged), decided.afterSave?.(), fellBack ? optional?.otherwise() : undefined]);
      return { result: decided.result, call, saved: true };
    }
    await decided.undo?.();
  }
  throw new Error(`Call ${callId} kept changing under this transition`);
}

/**
 * A claim riding in a transition's save (claimInSave), kept across the change's re-runs: after a
 * save refused by the claim alone, the change chooses again from the same claim (the buyer's
 * counter item read again); on the first run and after a lost save (the call may have moved on)
 * `make` makes it afresh.
 */
export interface ClaimAcrossRuns {
  choose(make: () => Promise<ClaimInSave>): Promise<ClaimChoice>;
  /** The transition's `claim` for the choice made (none without a buyer). */
  inSave(chosen: ClaimChoice | undefined): { write: TransactItem; refused: (conflict: boolean) => Promise<void> } | undefined;
}

export function claimAcrossRuns(): ClaimAcrossRuns {
  let claim: ClaimInSave | undefined;
  let again = false;
  return {
    async choose(make) {
      if (!again || !claim) claim = await make();
      again = false;
      return claim.choice();
    },
    inSave(chosen) {
      const write = chosen?.write;
      if (!write) return undefined;
      return {
        write,
        refused: async (conflict) => {
          again = true;
          await claim?.refused(conflict);
        },
      };
    },
  };
}

/**
 * Whether a transaction was cancelled by one of its items `from`..`from + count - 1`: its condition
 * failed, or another request was writing that item (a busy buyer's counters, claimed by other calls).
 */
function cancelledByCondition(error: unknown, from: number, count: number): boolean {
  if (!(error instanceof TransactionCanceledException)) return false;
  return (error.CancellationReasons ?? []).slice(from, from + count).some((reason) => reason.Code === 'ConditionalCheckFailed' || reason.Code === 'TransactionConflict');
}
