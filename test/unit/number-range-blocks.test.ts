import { describe, expect, it } from 'vitest';
import { parseNumberRange } from '../../shared/adapters/local/test-number-range.js';
import { numberRangeOfBlock } from '../fixtures/number-range.js';

describe('test files number range blocks', () => {
  it('are valid ranges of 100 numbers that never overlap', () => {
    const ranges = Array.from({ length: 500 }, (_, index) => parseNumberRange(numberRangeOfBlock(index + 1)));
    for (const range of ranges) expect(range.last - range.first).toBe(99);
    const sorted = [...ranges].sort((a, b) => a.first - b.first);
    for (let i = 1; i < sorted.length; i++) expect(sorted[i]!.first).toBeGreaterThan(sorted[i - 1]!.last);
  });

  it('refuses blocks that are not positive integers', () => {
    expect(() => numberRangeOfBlock(0)).toThrow(RangeError);
    expect(() => numberRangeOfBlock(1.5)).toThrow(RangeError);
  });

  it('gives this file a range of its own through the test setup', () => {
    expect(process.env.LOCAL_NUMBER_RANGE).toMatch(/^\+1\d{3}555\d{4}\.\.\+1\d{3}555\d{4}$/);
  });
});
