import { describe, expect, it } from 'vitest';
import { RecentMap } from '../../shared/recent-map.js';

describe('RecentMap', () => {
  it('forgets the entry written longest ago once over its limit; writing again makes an entry the newest', () => {
    const map = new RecentMap<string, number>(2);
    map.set('a', 1);
    map.set('b', 2);
    map.set('a', 3);
    map.set('c', 4);
    expect(map.get('b')).toBeUndefined();
    expect(map.get('a')).toBe(3);
    expect(map.get('c')).toBe(4);
    expect(map.size).toBe(2);
    map.delete('a');
    expect(map.get('a')).toBeUndefined();
    expect(map.size).toBe(1);
  });
});
