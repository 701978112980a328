import { isoWithOffset } from '../../shared/time.js';

/**
 * A call's timeline as the API shows it. The engine keeps its timeline as a list of
 * `{ at, type, ...detail }` entries (shared/calls/call-flow.ts; packed in storage,
 * shared/calls/call-item.ts, unpacked by every read of calls); here each gets its position
 * and a time with offset. Pure.
 */
export interface TimelineEntry {
  position: number;
  at: string | null;
  type: string;
  [detail: string]: unknown;
}

export function timelineOf(call: Record<string, unknown>, timeZone = 'UTC'): TimelineEntry[] {
  const entries = Array.isArray(call.timeline) ? (call.timeline as unknown[]) : [];
  return entries.flatMap((entry, index) => {
    if (!entry || typeof entry !== 'object') return [];
    const { at, type, ...detail } = entry as Record<string, unknown>;
    return [{ position: index + 1, at: typeof at === 'string' && at ? isoWithOffset(at, timeZone) : null, type: String(type ?? 'unknown'), ...detail }];
  });
}
