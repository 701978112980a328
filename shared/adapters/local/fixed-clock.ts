import type { Clock } from '../../ports/clock.js';

/**
 * A clock for tests: it stands at a chosen instant and moves one millisecond per reading, so
 * time-sortable ids (shared/db/ids.ts: milliseconds plus 12 random bits) made under it keep
 * their order and stay as unlikely to collide as under the real clock, while a test that reads
 * it a few hundred times stays within the same second.
 */
export class FixedClock implements Clock {
  private readings = 0;
  private readonly startMs: number;

  constructor(at: Date | string) {
    this.startMs = new Date(at).getTime();
    if (Number.isNaN(this.startMs)) throw new RangeError(`invalid instant ${String(at)}`);
  }

  now(): Date {
    return new Date(this.startMs + this.readings++);
  }
}
