import { releaseConcurrency, reserveAttempt } from '../buyers/counters.js';
import { buyerTimeZone } from '../buyers/limits.js';
import type { RandomSource } from './random.js';
import { routeBuyers, type RankedBuyer, type RoutingBuyer, type RoutingContext, type ExcludedBuyer } from './route-buyers.js';
import { loadRoutingBuyers } from './router.js';

/**
 * Claiming a buyer for a call: decide the order (the buyers and their counters read by key), then
 * reserve an attempt and a concurrent call on each buyer in turn, atomically and within its
 * caps, until one accepts. A buyer that filled up between the decision and the reservation
 * is skipped with the cap that stopped it. The call releases the claim when it ends.
 */
export interface Claim {
  buyer: RankedBuyer;
  /** Buyers after the claimed one, to fall through to on no answer. */
  next: RankedBuyer[];
  excluded: ExcludedBuyer[];
}

export async function claimBuyer(
  companyId: number,
  buyerIds: ReadonlySet<number>,
  context: RoutingContext,
  random: RandomSource,
  /** The buyers of `buyerIds` with their counter items, when the caller read them already (in id order, as loadRoutingBuyers gives them). */
  loaded?: readonly RoutingBuyer[],
): Promise<Claim | { buyer: undefined; excluded: ExcludedBuyer[] }> {
  const buyers = loaded ?? (await loadRoutingBuyers(companyId, buyerIds));
  const decision = routeBuyers(buyers, context, random);
  const excluded = [...decision.excluded];
  for (const [index, buyer] of decision.eligible.entries()) {
    const reserved = await reserveAttempt(companyId, buyer.id, buyerTimeZone(buyer.record), context.now, buyer.limits, buyer.counters);
    if (reserved.ok) return { buyer, next: decision.eligible.slice(index + 1), excluded };
    excluded.push({ id: buyer.id, name: buyer.name, reason: reserved.reason });
  }
  return { buyer: undefined, excluded };
}

/** Ends a claim: the buyer's concurrent call is released. */
export async function releaseClaim(companyId: number, buyer: { id: number; record: Record<string, unknown> }, now: Date): Promise<void> {
  await releaseConcurrency(companyId, buyer.id, buyerTimeZone(buyer.record), now);
}
