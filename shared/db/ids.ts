import { randomInt } from 'node:crypto';

/**
 * Time-sortable integer ids for high-volume records (calls, leads, logs), so that creating
 * them needs no counter item that would become a hot key.
 *
 * Layout: milliseconds since 2024-01-01 UTC times 2^12, plus 12 random bits. That stays below
 * 2^53 (JavaScript's safe integers, which JSON clients can read) until about the year 2094, and
 * ids created later always compare greater than ids from an earlier millisecond.
 */
export const ID_EPOCH_MS = Date.UTC(2024, 0, 1);
const RANDOM_BITS = 12;
const RANDOM_RANGE = 2 ** RANDOM_BITS;

export function timeSortableId(nowMs: number, random: number = randomInt(RANDOM_RANGE)): number {
  if (!Number.isInteger(random) || random < 0 || random >= RANDOM_RANGE) {
    throw new RangeError(`random part must be an integer in [0, ${RANDOM_RANGE})`);
  }
  const elapsed = Math.floor(nowMs) - ID_EPOCH_MS;
  if (elapsed < 0) throw new RangeError('time before the id epoch');
  const id = elapsed * RANDOM_RANGE + random;
  if (!Number.isSafeInteger(id)) throw new RangeError('id beyond 2^53');
  return id;
}

/** The creation time encoded in a time-sortable id (millisecond precision). */
export function timeOfId(id: number): number {
  return Math.floor(id / RANDOM_RANGE) + ID_EPOCH_MS;
}
