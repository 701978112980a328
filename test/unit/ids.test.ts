import { describe, expect, it } from 'vitest';
import { ID_EPOCH_MS, timeOfId, timeSortableId } from '../../shared/db/ids.js';

describe('timeSortableId', () => {
  const now = Date.UTC(2026, 10, 21, 5, 31);

  it('encodes the time so that later ids are larger whatever their random part', () => {
    expect(timeSortableId(now + 1, 0)).toBeGreaterThan(timeSortableId(now, 4095));
    expect(timeOfId(timeSortableId(now, 1234))).toBe(now);
  });

  it('stays a safe integer until at least 2090', () => {
    expect(Number.isSafeInteger(timeSortableId(Date.UTC(2090, 0, 1), 4095))).toBe(true);
  });

  it('refuses times before its epoch and random parts out of range', () => {
    expect(() => timeSortableId(ID_EPOCH_MS - 1, 0)).toThrow(RangeError);
    expect(() => timeSortableId(now, 4096)).toThrow(RangeError);
    expect(() => timeSortableId(now, -1)).toThrow(RangeError);
  });

  it('gives distinct ids within one millisecond through its random part', () => {
    const ids = new Set(Array.from({ length: 100 }, () => timeSortableId(now)));
    expect(ids.size).toBeGreaterThan(90);
  });
});
