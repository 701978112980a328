import { describe, expect, it } from 'vitest';
import { readsBuyersPartition } from '../../shared/routing/router.js';

describe('reading an offer\'s buyers: by key, or the whole partition when that costs less', () => {
  it('reads small offers by key whatever the company holds', () => {
    expect(readsBuyersPartition(10, 10)).toBe(false);
    expect(readsBuyersPartition(99, 100)).toBe(false);
  });

  it('reads by key while the company size is unknown', () => {
    expect(readsBuyersPartition(1000, undefined)).toBe(false);
  });

  it('reads the partition once a large offer holds an eighth of the company or more', () => {
    expect(readsBuyersPartition(1000, 1000)).toBe(true);
    expect(readsBuyersPartition(100, 800)).toBe(true);
    expect(readsBuyersPartition(100, 801)).toBe(false);
  });

  it('reads by key when the partition is more than about one Query page (pages are sequential)', () => {
    expect(readsBuyersPartition(1000, 1001)).toBe(false);
    expect(readsBuyersPartition(1000, 3000)).toBe(false);
    expect(readsBuyersPartition(3000, 3000)).toBe(false);
  });
});
