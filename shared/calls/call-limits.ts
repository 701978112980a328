/**
 * Bounds on what a call item accumulates, so it stays far below DynamoDB's 400 KB item limit
 * whatever clients and carriers send: a call whose item grew past the limit could no longer be
 * saved, and every later carrier callback for it would fail ("a frozen call").
 *
 * - `data` (the call's token hash): clients change it through the API, so over-limit input is
 *   refused there (422 naming `data`, nothing written); tokens the engine itself copies in (a
 *   ping's tokens) are trimmed instead, never refused.
 * - `timeline`: only the engine appends, so it never refuses; it keeps the first entries (how the
 *   call started and was routed) and the latest ones, and one `timeline_trimmed` entry between
 *   them counts what was dropped.
 *
 * Budget: data 16 KB + timeline 48 KB + the fixed fields leave a call under 100 KB for any offer
 * of a few hundred buyers. Pure.
 */
export const DATA_LIMITS = {
  keys: 100,
  keyLength: 100,
  /** Characters of a string value. */
  valueLength: 1000,
  /** UTF-8 bytes of the whole hash as JSON. */
  bytes: 16 * 1024,
} as const;

export const TIMELINE_LIMITS = {
  entries: 100,
  /** Entries kept from the start, before the `timeline_trimmed` marker. */
  head: 10,
  /** UTF-8 bytes of one entry as JSON; a bigger entry keeps only `at` and `type`. */
  entryBytes: 4 * 1024,
  /** UTF-8 bytes of the whole timeline as JSON. */
  bytes: 48 * 1024,
} as const;

export const TIMELINE_TRIMMED = 'timeline_trimmed';

export type PlainValue = string | number | boolean | null;
export type TimelineEntry = { at: string; type: string } & Record<string, unknown>;

const bytesOf = (value: unknown): number => Buffer.byteLength(JSON.stringify(value), 'utf8');

const isPlainValue = (value: unknown): value is PlainValue =>
  value === null || typeof value === 'string' || typeof value === 'boolean' || (typeof value === 'number' && Number.isFinite(value));

/** What is wrong with `data` as a call's whole data hash (empty when it is within the limits). */
export function dataProblems(data: Record<string, unknown>): string[] {
  const problems: string[] = [];
  const entries = Object.entries(data);
  if (entries.length > DATA_LIMITS.keys) problems.push(`has more than ${DATA_LIMITS.keys} keys`);
  if (entries.some(([key]) => key.length > DATA_LIMITS.keyLength)) problems.push(`has a key longer than ${DATA_LIMITS.keyLength} characters`);
  if (entries.some(([, value]) => typeof value === 'string' && value.length > DATA_LIMITS.valueLength)) {
    problems.push(`has a value longer than ${DATA_LIMITS.valueLength} characters`);
  }
  if (bytesOf(data) > DATA_LIMITS.bytes) problems.push(`is larger than ${DATA_LIMITS.bytes} bytes as JSON`);
  return problems;
}

/**
 * `data` cut to the limits, for data the engine takes in without a client to refuse: plain values
 * only, over-long keys skipped, long strings shortened, and keys taken in order while they fit.
 */
export function boundData(data: unknown): Record<string, PlainValue> {
  const bounded: Record<string, PlainValue> = {};
  if (!data || typeof data !== 'object' || Array.isArray(data)) return bounded;
  let bytes = 2; // {}
  let count = 0;
  for (const [key, raw] of Object.entries(data)) {
    if (count >= DATA_LIMITS.keys) break;
    if (key.length > DATA_LIMITS.keyLength || !isPlainValue(raw)) continue;
    const value = typeof raw === 'string' ? raw.slice(0, DATA_LIMITS.valueLength) : raw;
    const added = bytesOf(key) + bytesOf(value) + 2; // "key":value plus a comma
    if (bytes + added > DATA_LIMITS.bytes) continue;
    bounded[key] = value;
    bytes += added;
    count++;
  }
  return bounded;
}

/** An entry within its byte limit: a bigger one keeps only when and what, marked `truncated`. */
function boundEntry(entry: TimelineEntry): TimelineEntry {
  return bytesOf(entry) <= TIMELINE_LIMITS.entryBytes ? entry : { at: String(entry.at).slice(0, 40), type: String(entry.type).slice(0, 100), truncated: true };
}

/**
 * The timeline cut to its limits: the first `head` entries, then (when anything was dropped) one
 * `timeline_trimmed` entry with the total `dropped` so far, then the newest entries that fit. The
 * newest entry is always kept. Applying it again to its own output changes nothing.
 */
export function boundTimeline(entries: readonly TimelineEntry[]): TimelineEntry[] {
  const head = entries.slice(0, TIMELINE_LIMITS.head).map(boundEntry);
  let rest = entries.slice(TIMELINE_LIMITS.head);
  let dropped = 0;
  let droppedAt: string | undefined;
  if (rest[0]?.type === TIMELINE_TRIMMED) {
    dropped = Number(rest[0].dropped) || 0;
    droppedAt = rest[0].at;
    rest = rest.slice(1);
  }
  const tail = rest.map(boundEntry);
  const sizes = tail.map(bytesOf);
  const markerBytes = 100;
  let bytes = bytesOf(head) + sizes.reduce((sum, size) => sum + size + 1, 0) + markerBytes;
  let first = 0;
  const fits = () => head.length + 1 + (tail.length - first) <= TIMELINE_LIMITS.entries && bytes <= TIMELINE_LIMITS.bytes;
  while (tail.length - first > 1 && !fits()) {
    bytes -= sizes[first]! + 1;
    droppedAt = tail[first]!.at;
    first++;
    dropped++;
  }
  const kept = tail.slice(first);
  return dropped > 0 ? [...head, { at: droppedAt ?? kept[0]?.at ?? '', type: TIMELINE_TRIMMED, dropped }, ...kept] : [...head, ...kept];
}
