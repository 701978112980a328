import type { NumberProvider, NumberSearch } from '../ports/numbers.js';
import { takenNumbers } from './lookup.js';

/** Candidates asked of the carrier at most, whatever the page size (two BatchGets of lookups). */
export const MAX_CANDIDATES = 200;

/**
 * The next number of candidates to ask for, or undefined to stop: when enough are free, when
 * the carrier had no more than it was asked for, or at the ceiling. Pure.
 */
export function nextCandidateCount(state: { limit: number; asked: number; returned: number; free: number }): number | undefined {
  if (state.free >= state.limit || state.returned < state.asked || state.asked >= MAX_CANDIDATES) return undefined;
  return Math.min(state.asked * 4, MAX_CANDIDATES);
}

/**
 * Numbers the carrier offers that no company of this deployment holds, in the carrier's order.
 * The carrier does not know what the table holds (the local range certainly does not), so
 * candidates are checked against the global lookups, asking for more while too many are taken.
 */
export async function searchFreeNumbers(provider: NumberProvider, query: NumberSearch): Promise<string[]> {
  const free: string[] = [];
  const seen = new Set<string>();
  let asked: number | undefined = Math.min(query.limit, MAX_CANDIDATES);
  while (asked !== undefined) {
    const candidates = await provider.search({ ...query, limit: asked });
    const fresh = candidates.filter((number) => !seen.has(number));
    for (const number of fresh) seen.add(number);
    const taken = fresh.length ? await takenNumbers(fresh) : new Set<string>();
    free.push(...fresh.filter((number) => !taken.has(number)));
    asked = nextCandidateCount({ limit: query.limit, asked, returned: candidates.length, free: free.length });
  }
  return free.slice(0, query.limit);
}
