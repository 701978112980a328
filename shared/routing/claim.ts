import { randomInt } from 'node:crypto';
import { readCounterItem, reservationWrite } from '../buyers/counters.js';
import type { TransactItem } from '../db/client.js';
import { buyerTimeZone } from '../buyers/limits.js';
import type { RandomSource } from './random.js';
import { routeBuyers, type RankedBuyer, type RoutingBuyer, type RoutingContext, type ExcludedBuyer } from './route-buyers.js';

/**
 * Claiming a buyer for a call, inside the transaction that saves the call (claimInSave below):
 * the order is decided from the buyers and their counters as read, then the first eligible buyer
 * with room is reserved an attempt and a concurrent call by a conditional update riding in the
 * save. The call releases the claim when it ends (shared/calls/call-end.ts).
 */
export interface Claim {
  buyer: RankedBuyer;
  /** Buyers after the claimed one, to fall through to on no answer. */
  next: RankedBuyer[];
  excluded: ExcludedBuyer[];
}

/**
 * What a claim made inside the call's save chose: the buyer with its reservation (a member of the
 * save's transaction), or no buyer.
 */
export type ClaimChoice = (Claim & { write: TransactItem }) | { buyer: undefined; excluded: ExcludedBuyer[]; write?: undefined };

export interface ClaimInSave {
  /** The buyer to dial and its reservation, from the counter items as last read. */
  choice(): ClaimChoice;
  /**
   * The save was cancelled by the choice's reservation (its condition failed, or `conflict`:
   * another request held the counter item): the buyer's counter item is read again, and the next
   * choice decides from it.
   */
  refused(conflict: boolean): Promise<void>;
}

/** Refusals of one buyer before it is passed over as contended (as many tries as applyCounterChange makes). */
const MAX_REFUSALS = 25;

/**
 * Claiming a buyer in the transaction that saves the call, instead of a request of its own before
 * it: the order is decided once (routeBuyers), then each choice is the first eligible buyer whose
 * counters as read leave room, its reservation conditioned on them (reservationWrite). A save
 * cancelled by that condition reads the buyer's counter item again: the same buyer is chosen again
 * when it still has room (the item had moved on: a new period, another call's first claim), else
 * it is excluded with the cap that stopped it and the next one chosen.
 */
export function claimInSave(companyId: number, buyers: readonly RoutingBuyer[], context: RoutingContext, random: RandomSource): ClaimInSave {
  const decision = routeBuyers(buyers, context, random);
  const excluded = [...decision.excluded];
  const counters = new Map(decision.eligible.map((buyer) => [buyer.id, buyer.counters]));
  let index = 0;
  let refusals = 0;
  const passOver = (buyer: RankedBuyer, reason: string) => {
    excluded.push({ id: buyer.id, name: buyer.name, reason });
    index += 1;
    refusals = 0;
  };
  return {
    choice() {
      for (let buyer = decision.eligible[index]; buyer; buyer = decision.eligible[index]) {
        const reserved = reservationWrite(companyId, buyer.id, buyerTimeZone(buyer.record), context.now, buyer.limits, counters.get(buyer.id));
        if (reserved.ok) return { buyer, next: decision.eligible.slice(index + 1), excluded: [...excluded], write: reserved.write };
        passOver(buyer, reserved.reason);
      }
      return { buyer: undefined, excluded: [...excluded] };
    },
    async refused(conflict) {
      const buyer = decision.eligible[index];
      if (!buyer) return;
      refusals += 1;
      if (refusals >= MAX_REFUSALS) return passOver(buyer, 'contention');
      // Racing claims back off a little (jittered, so they spread out), then read the item again.
      if (conflict || refusals > 1) await new Promise((done) => setTimeout(done, randomInt(1 + 2 * refusals)));
      counters.set(buyer.id, await readCounterItem(companyId, buyer.id));
    },
  };
}
