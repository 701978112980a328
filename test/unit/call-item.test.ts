import { describe, expect, it } from 'vitest';
import { callFromItem, callItemAttributes, storedAttribute, timelineChunk } from '../../shared/calls/call-item.js';
import { itemSize } from '../../shared/db/item-limits.js';

const created = '2026-11-23T10:00:00.000Z';
const call = {
  id: 1,
  created_at: created,
  caller_city: null,
  ring_pool_id: null,
  queue: [],
  timeline: [
    { reservation: null, from: '+14155552671', to: '+14155550100', at: created, type: 'incoming' },
    { attempt: 1, buyer_id: 7, number: '+12125550123', at: '2026-11-23T10:00:00.250Z', type: 'dial' },
    { odd: true, at: 'not a time', type: 'custom' },
  ],
  attempts: [{ attempt: 1, buyer_id: 7, buyer_name: 'Acme', status: 'answered', started_at: created, answered_at: '2026-11-23T10:00:04.004Z', answered_duration: null, released: false, time_zone: 'UTC' }],
};

describe('a stored call', () => {
  it('reads back exactly as written: timeline and attempts packed, null API columns left out and read as null', () => {
    const stored = callItemAttributes(call);
    expect(stored).not.toHaveProperty('caller_city');
    // Not an API column: its null is kept.
    expect(stored.ring_pool_id).toBeNull();
    expect(stored.attempts).toBeInstanceOf(Uint8Array);
    expect(callFromItem(stored)).toMatchObject(call);
    expect(callFromItem(stored).caller_city).toBeNull();
    expect(itemSize(stored).bytes).toBeLessThan(itemSize(call).bytes / 2);
  });

  it('reads a timeline of plain entries (a call stored before) with packed chunks appended after them', () => {
    const [first, ...later] = call.timeline;
    const mixed = { ...call, timeline: [first, timelineChunk(call, later)], attempts: call.attempts };
    expect(callFromItem(mixed).timeline).toEqual(call.timeline);
  });

  it('keeps empty lists as lists and times without a created_at as they are', () => {
    expect(storedAttribute(call, 'timeline', [])).toEqual([]);
    expect(storedAttribute(call, 'attempts', [])).toEqual([]);
    const noBase = { timeline: [{ at: created, type: 'incoming' }] };
    expect(callFromItem(callItemAttributes(noBase)).timeline).toEqual(noBase.timeline);
  });

  it('refuses a chunk of a dictionary it does not know rather than misreading it', () => {
    const chunk = timelineChunk(call, call.timeline);
    chunk[0] = 99;
    expect(() => callFromItem({ ...call, timeline: [chunk] })).toThrow(/dictionary 99/);
  });
});
