import type { Clock } from '../ports/clock.js';
import { systemClock } from './system-clock.js';

let currentClock: Clock = systemClock;

/** The clock of this process: the system clock unless a test set another. */
export function clock(): Clock {
  return currentClock;
}

/**
 * Replaces the clock (tests pin the time through it: the local gateway runs in the test's
 * process); no argument restores the system clock. No mode sets it, so deployed code always
 * runs on system time.
 */
export function setClock(replacement: Clock = systemClock): void {
  currentClock = replacement;
}
