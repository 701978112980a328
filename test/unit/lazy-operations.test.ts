import { describe, expect, it, vi } from 'vitest';
import { lazyOperation } from '../../shared/http/lazy-operation.js';
import type { Operation, OperationRequest, OperationResult } from '../../shared/http/request.js';
import { buyerGroups, buyers } from '../../shared/buyers/buyers-resource.js';
import { groupOperations } from '../../shared/resources/engine.js';
import { lazyGroupOperations } from '../../shared/resources/lazy-operations.js';
import { buyersRoutings } from '../../shared/resources/routing/buyers.js';

const request = {} as OperationRequest;
const answer: OperationResult = { kind: 'raw', response: { statusCode: 204, headers: {}, body: '' } };

describe('lazyOperation', () => {
  it('loads its operation on the first call only, then calls it on every call', async () => {
    const operation = vi.fn<Operation>(async () => answer);
    const load = vi.fn(async () => operation);
    const lazy = lazyOperation(load);
    expect(load).not.toHaveBeenCalled();
    expect(await lazy(request)).toBe(answer);
    expect(await lazy(request)).toBe(answer);
    expect(load).toHaveBeenCalledTimes(1);
    expect(operation).toHaveBeenCalledTimes(2);
  });

  it('does not keep a failed load: the next call loads again', async () => {
    const load = vi.fn<() => Promise<Operation>>().mockRejectedValueOnce(new Error('load failed')).mockResolvedValue(async () => answer);
    const lazy = lazyOperation(load);
    await expect(lazy(request)).rejects.toThrow('load failed');
    expect(await lazy(request)).toBe(answer);
    expect(load).toHaveBeenCalledTimes(2);
  });
});

describe('lazyGroupOperations', () => {
  it('names the same operations from the routing facts as the loaded definitions make, loading nothing until one is called', () => {
    const load = vi.fn(async () => [buyers, buyerGroups]);
    const lazy = lazyGroupOperations('buyers', buyersRoutings, load);
    expect(Object.keys(lazy).sort()).toEqual(Object.keys(groupOperations('buyers', [buyers, buyerGroups])).sort());
    expect(load).not.toHaveBeenCalled();
  });

  it('fails the call when the loaded definitions are not the routing facts\' resources', async () => {
    const lazy = lazyGroupOperations('buyers', buyersRoutings, async () => [buyers]);
    await expect(lazy['buyers.show']!(request)).rejects.toThrow('Route group buyers loads resources buyers, its routing facts name buyer_groups, buyers');
  });
});
