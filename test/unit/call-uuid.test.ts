import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { callOfUuid, callUuid } from '../../shared/calls/call-uuid.js';
import { timeSortableId } from '../../shared/db/ids.js';

const UUID_TEXT = /^[0-9a-f]{8}-[0-9a-f]{4}-8[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('a call uuid', () => {
  it('is a version 8 UUID that names its company and call, for any safe ids', () => {
    for (const [companyId, callId] of [[1, timeSortableId(Date.now())], [0, 0], [Number.MAX_SAFE_INTEGER, Number.MAX_SAFE_INTEGER], [42, 7]] as const) {
      const uuid = callUuid(companyId, callId);
      expect(uuid).toMatch(UUID_TEXT);
      expect(callOfUuid(uuid)).toEqual({ companyId, callId });
      expect(callOfUuid(uuid.toUpperCase())).toEqual({ companyId, callId });
    }
  });

  it('names nothing for a random uuid (calls made before: looked up) or anything else', () => {
    for (let index = 0; index < 50; index += 1) expect(callOfUuid(randomUUID())).toBeUndefined();
    expect(callOfUuid('not-a-uuid')).toBeUndefined();
    expect(callOfUuid('ffffffff-ffff-8fff-8fff-ffffffffffff')).toBeUndefined();
  });

  it('differs between calls and refuses ids that are not safe integers', () => {
    expect(callUuid(1, 2, 0)).not.toBe(callUuid(2, 1, 0));
    expect(() => callUuid(1.5, 2)).toThrow(RangeError);
    expect(() => callUuid(1, -1)).toThrow(RangeError);
  });
});
