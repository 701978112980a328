import { describe, expect, it } from 'vitest';
import { toNumberRoute } from '../../shared/numbers/lookup.js';
import { MAX_CANDIDATES, nextCandidateCount } from '../../shared/numbers/search.js';

describe('asking the provider for more candidates', () => {
  it('stops once enough are free', () => {
    expect(nextCandidateCount({ limit: 5, asked: 5, returned: 5, free: 5 })).toBeUndefined();
  });

  it('stops when the provider had fewer than it was asked for (nothing more to find)', () => {
    expect(nextCandidateCount({ limit: 5, asked: 20, returned: 12, free: 2 })).toBeUndefined();
  });

  it('asks for four times as many while too many are taken, up to the ceiling, then stops', () => {
    expect(nextCandidateCount({ limit: 5, asked: 5, returned: 5, free: 1 })).toBe(20);
    expect(nextCandidateCount({ limit: 25, asked: 100, returned: 100, free: 3 })).toBe(MAX_CANDIDATES);
    expect(nextCandidateCount({ limit: 25, asked: MAX_CANDIDATES, returned: MAX_CANDIDATES, free: 3 })).toBeUndefined();
  });
});

describe('number routes', () => {
  it('reads a lookup item or record as company, record id, offer, traffic source and pool', () => {
    expect(toNumberRoute('+14155550100', { pk: 'x', company_id: 3, id: 7, resource: 'phone_numbers', offer_id: 2, traffic_source_id: null })).toEqual({
      number: '+14155550100',
      company_id: 3,
      id: 7,
      offer_id: 2,
      traffic_source_id: null,
      ring_pool_id: null,
    });
  });
});
