import type { Clock } from '../ports/clock.js';

/** The machine's clock: what every mode uses unless a test sets another. */
export const systemClock: Clock = { now: () => new Date() };
