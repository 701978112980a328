import { describe, expect, it } from 'vitest';
import { boundData, boundTimeline, DATA_LIMITS, dataProblems, TIMELINE_LIMITS, TIMELINE_TRIMMED, type TimelineEntry } from '../../shared/calls/call-limits.js';

const bytes = (value: unknown) => Buffer.byteLength(JSON.stringify(value), 'utf8');
const entry = (n: number, extra: Record<string, unknown> = {}): TimelineEntry => ({ at: `2026-11-22T10:00:${String(n % 60).padStart(2, '0')}.000Z`, type: `step${n}`, ...extra });
const entries = (count: number, extra: Record<string, unknown> = {}) => Array.from({ length: count }, (_, n) => entry(n, extra));

describe('call data limits', () => {
  it('accepts a hash at every limit and names each limit passed', () => {
    const atKeys = Object.fromEntries(Array.from({ length: DATA_LIMITS.keys }, (_, n) => [`k${n}`, n]));
    expect(dataProblems(atKeys)).toEqual([]);
    expect(dataProblems({ ...atKeys, one: 'more' })).toEqual([`has more than ${DATA_LIMITS.keys} keys`]);
    expect(dataProblems({ ['k'.repeat(DATA_LIMITS.keyLength)]: 1 })).toEqual([]);
    expect(dataProblems({ ['k'.repeat(DATA_LIMITS.keyLength + 1)]: 1 })).toEqual([`has a key longer than ${DATA_LIMITS.keyLength} characters`]);
    expect(dataProblems({ v: 'x'.repeat(DATA_LIMITS.valueLength) })).toEqual([]);
    expect(dataProblems({ v: 'x'.repeat(DATA_LIMITS.valueLength + 1) })).toEqual([`has a value longer than ${DATA_LIMITS.valueLength} characters`]);
    // 17 values of 1000 characters: each within its limit, together over the byte budget.
    const wide = Object.fromEntries(Array.from({ length: 17 }, (_, n) => [`k${n}`, 'x'.repeat(DATA_LIMITS.valueLength)]));
    expect(dataProblems(wide)).toEqual([`is larger than ${DATA_LIMITS.bytes} bytes as JSON`]);
    // Multi-byte characters count in bytes, not characters.
    expect(dataProblems(Object.fromEntries(Array.from({ length: 6 }, (_, n) => [`k${n}`, '€'.repeat(1000)])))).toHaveLength(1);
  });

  it('trims data the engine takes in to the limits instead of refusing it', () => {
    const input: Record<string, unknown> = { keep: 'x'.repeat(5000), ['k'.repeat(101)]: 1, nested: { a: 1 }, list: [1], n: 2, b: true, z: null };
    for (let n = 0; n < 300; n++) input[`t${n}`] = 'y'.repeat(900);
    const bounded = boundData(input);
    expect(dataProblems(bounded)).toEqual([]);
    expect(bounded.keep).toBe('x'.repeat(DATA_LIMITS.valueLength));
    expect(bounded).toMatchObject({ n: 2, b: true, z: null });
    expect(Object.keys(bounded)).not.toContain('nested');
    expect(Object.keys(bounded)).not.toContain('list');
    expect(bytes(bounded)).toBeGreaterThan(DATA_LIMITS.bytes - 1000);
    expect(boundData('not a hash')).toEqual({});
    expect(boundData({ a: 1 })).toEqual({ a: 1 });
  });
});

describe('timeline limits', () => {
  it('leaves a timeline within its limits as it is', () => {
    const short = entries(TIMELINE_LIMITS.entries - 1);
    expect(boundTimeline(short)).toEqual(short);
  });

  it('keeps the first entries and the newest, with one marker counting the dropped ones', () => {
    const long = entries(250);
    const bounded = boundTimeline(long);
    expect(bounded).toHaveLength(TIMELINE_LIMITS.entries);
    expect(bounded.slice(0, TIMELINE_LIMITS.head)).toEqual(long.slice(0, TIMELINE_LIMITS.head));
    const kept = TIMELINE_LIMITS.entries - TIMELINE_LIMITS.head - 1;
    expect(bounded[TIMELINE_LIMITS.head]).toEqual({ at: long[250 - kept - 1]!.at, type: TIMELINE_TRIMMED, dropped: 250 - TIMELINE_LIMITS.head - kept });
    expect(bounded.slice(TIMELINE_LIMITS.head + 1)).toEqual(long.slice(250 - kept));
  });

  it('counts drops across appends and is stable on its own output', () => {
    let timeline: TimelineEntry[] = [];
    for (let n = 0; n < 500; n++) timeline = boundTimeline([...timeline, entry(n)]);
    expect(timeline).toHaveLength(TIMELINE_LIMITS.entries);
    expect(timeline[TIMELINE_LIMITS.head]).toMatchObject({ type: TIMELINE_TRIMMED, dropped: 500 - TIMELINE_LIMITS.entries + 1 });
    expect(timeline.at(-1)).toEqual(entry(499));
    expect(boundTimeline(timeline)).toEqual(timeline);
  });

  it('holds the byte budget with large entries and cuts an oversized entry to when and what', () => {
    const big = entries(90, { detail: 'd'.repeat(3000) });
    const bounded = boundTimeline(big);
    expect(bytes(bounded)).toBeLessThanOrEqual(TIMELINE_LIMITS.bytes);
    expect(bounded.at(-1)).toEqual(big.at(-1));
    expect(bounded[TIMELINE_LIMITS.head]?.type).toBe(TIMELINE_TRIMMED);
    expect(boundTimeline([entry(1, { detail: 'd'.repeat(5000) })])).toEqual([{ at: entry(1).at, type: 'step1', truncated: true }]);
  });
});
