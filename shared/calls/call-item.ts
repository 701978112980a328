import { deflateRawSync, inflateRawSync } from 'node:zlib';
import { REPORTING_COLUMNS } from './call-record-fields.js';
import { CALL_COLUMNS } from './call-view.js';

/**
 * How a call is stored, apart from how the engine and the API see it, so the item stays under
 * 1 KB for an ordinary call: DynamoDB bills a transactional write 2 units per started KB of the
 * item (the larger of before and after), and every webhook of a call writes it in a transaction.
 *
 * - `timeline`: a list of chunks, one per save that appended entries (so a save still appends
 *   with list_append instead of rewriting the list); a chunk is the entries' JSON, their times
 *   as milliseconds after the call's `created_at`, deflated with a dictionary of the entries the
 *   engine writes. Entries stored as plain maps (calls saved before) are read as they are.
 * - `attempts`: one deflated chunk the same way (an attempt changes in place, so it is rewritten).
 * - API columns that are null are left out, and read back as null.
 *
 * A chunk's first byte names its dictionary: a dictionary, once used, never changes (chunks
 * written with it could not be read); a new one takes the next number. Pure.
 */

/** Attributes whose ISO times are stored as milliseconds after `created_at`. */
const TIME_KEYS = new Set(['at', 'started_at', 'answered_at']);

/** Samples of what the engine writes (shared/calls/call-flow.ts), in its key order: what deflate finds repeated. */
const TIMELINE_SAMPLES = [
  { reason: 'caller is blacklisted', at: 0, type: 'blocked' },
  { router_id: 1, step: 1, at: 0, type: 'router' },
  { fields: ['revenue'], at: 0, type: 'updated' },
  { recording_url: 'https://', at: 0, type: 'recording' },
  { offer_conversion_id: 1, payout: 1, at: 0, type: 'traffic_source_payout' },
  { attempt: 1, buyer_id: 1, outcome: 'no-answer', at: 0, type: 'dial_ended' },
  { status: 'no_answer', total_duration: 0, at: 0, type: 'ended' },
  { buyer_id: 1, converted: false, reason: 'duration', at: 0, type: 'buyer_conversion' },
  { reservation: null, from: '+1', to: '+1', at: 0, type: 'incoming' },
  { candidates: [1], chosen: 1, excluded: [], at: 0, type: 'routing' },
  { attempt: 1, buyer_id: 1, number: '+1', at: 0, type: 'dial' },
  { attempt: 1, buyer_id: 1, at: 0, type: 'answered' },
  { attempt: 1, buyer_id: 1, outcome: 'completed', answered_duration: 1, at: 0, type: 'dial_ended' },
  { buyer_id: 1, converted: true, revenue: 1, at: 0, type: 'buyer_conversion' },
  { status: 'completed', total_duration: 1, at: 0, type: 'ended' },
];
const ATTEMPT_SAMPLES = [
  { attempt: 2, buyer_id: 1, buyer_name: '', status: 'no-answer', started_at: 0, answered_at: null, answered_duration: null, released: true, time_zone: 'America/New_York' },
  { attempt: 1, buyer_id: 1, buyer_name: '', status: 'completed', started_at: 0, answered_at: 0, answered_duration: 1, released: true, time_zone: 'UTC', conversion: { name: '', revenue: 1, duration: 1, duplicate_timeframe: 1 } },
];

const DICTIONARIES: Record<number, { timeline: Buffer; attempts: Buffer }> = {
  1: { timeline: Buffer.from(JSON.stringify(TIMELINE_SAMPLES)), attempts: Buffer.from(JSON.stringify(ATTEMPT_SAMPLES)) },
};
const CURRENT = 1;

/** Milliseconds since the epoch of the call's `created_at` (times are stored after it), if it has one. */
function baseOf(call: Record<string, unknown>): number | undefined {
  const base = typeof call.created_at === 'string' ? Date.parse(call.created_at) : NaN;
  return Number.isFinite(base) ? base : undefined;
}

/** ISO times as offsets from `base`, where the offset gives the very same string back. */
function withOffsets(value: unknown, base: number | undefined): unknown {
  if (Array.isArray(value)) return value.map((entry) => withOffsets(entry, base));
  if (!value || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, field]) => {
      if (base === undefined || !TIME_KEYS.has(key) || typeof field !== 'string') return [key, field];
      const offset = Date.parse(field) - base;
      return [key, Number.isFinite(offset) && new Date(base + offset).toISOString() === field ? offset : field];
    }),
  );
}

function withTimes(value: unknown, base: number | undefined): unknown {
  if (Array.isArray(value)) return value.map((entry) => withTimes(entry, base));
  if (!value || typeof value !== 'object') return value;
  return Object.fromEntries(Object.entries(value).map(([key, field]) => [key, base !== undefined && TIME_KEYS.has(key) && typeof field === 'number' ? new Date(base + field).toISOString() : field]));
}

function pack(list: unknown[], which: 'timeline' | 'attempts', base: number | undefined): Uint8Array {
  const packed = deflateRawSync(JSON.stringify(withOffsets(list, base)), { level: 9, dictionary: DICTIONARIES[CURRENT]![which] });
  return Buffer.concat([Buffer.from([CURRENT]), packed]);
}

function unpack(chunk: Uint8Array, which: 'timeline' | 'attempts', base: number | undefined): unknown[] {
  const dictionary = DICTIONARIES[chunk[0]!];
  if (!dictionary) throw new Error(`A call's ${which} was stored with dictionary ${chunk[0]}, which this code does not know`);
  const list = JSON.parse(inflateRawSync(chunk.subarray(1), { dictionary: dictionary[which] }).toString('utf8')) as unknown;
  return Array.isArray(list) ? (withTimes(list, base) as unknown[]) : [];
}

const isChunk = (value: unknown): value is Uint8Array => value instanceof Uint8Array;

/** A timeline chunk of `entries` (appended to the stored list by a save). */
export function timelineChunk(call: Record<string, unknown>, entries: unknown[]): Uint8Array {
  return pack(entries, 'timeline', baseOf(call));
}

/** The stored form of `attempts`. */
function storedAttempts(call: Record<string, unknown>, attempts: unknown[]): Uint8Array {
  return pack(attempts, 'attempts', baseOf(call));
}

/**
 * Columns whose null is left out of the item (callFromItem reads it back): the stored API columns,
 * not the ones the view derives (call-record-fields.ts), which are never stored.
 */
const DERIVED: ReadonlySet<string> = new Set(REPORTING_COLUMNS);
export const NULL_OMITTED: ReadonlySet<string> = new Set(CALL_COLUMNS.filter((column) => !DERIVED.has(column)));

/** An attribute's stored value, written whole: timeline and attempts packed (an empty list stays a list). */
export function storedAttribute(call: Record<string, unknown>, name: string, value: unknown): unknown {
  if (!Array.isArray(value) || value.length === 0) return value;
  if (name === 'timeline') return [timelineChunk(call, value)];
  if (name === 'attempts') return storedAttempts(call, value);
  return value;
}

/** The attributes to store for a whole call (its Put): timeline and attempts packed, null columns left out. */
export function callItemAttributes(call: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(call).flatMap(([name, value]) => (value === null && NULL_OMITTED.has(name) ? [] : [[name, storedAttribute(call, name, value)]])));
}

/** A stored call (keys removed) as the engine and the API see it: timeline and attempts unpacked, left-out columns null. */
export function callFromItem<T extends Record<string, unknown>>(item: T): T {
  const call: Record<string, unknown> = { ...item };
  const base = baseOf(call);
  if (Array.isArray(call.timeline) && call.timeline.some(isChunk)) {
    call.timeline = call.timeline.flatMap((entry) => (isChunk(entry) ? unpack(entry, 'timeline', base) : [entry]));
  }
  if (isChunk(call.attempts)) call.attempts = unpack(call.attempts, 'attempts', base);
  for (const name of NULL_OMITTED) if (!(name in call)) call[name] = null;
  return call as T;
}
