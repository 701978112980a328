import { randomInt } from 'node:crypto';

/** A source of uniform numbers in [0, 1): Math.random in service, seeded in tests. */
export type RandomSource = () => number;

/** mulberry32: a small, fast, seedable generator, good enough for weighted routing. */
export function seededRandom(seed: number): RandomSource {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

let seeded: RandomSource | undefined;

/** The service's source: seeded once per process from the OS, on first use (not at init: issue 12). */
export const serviceRandom: RandomSource = () => (seeded ??= seededRandom(randomInt(2 ** 31)))();
