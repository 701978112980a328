import { valueSize } from '../db/item-limits.js';

/**
 * What a change log entry says about a record (shared/resources/change-log.ts): PaperTrail's
 * `object_changes`, `{ field: [before, after] }`. Pure.
 *
 * - create: every stored field that has a value, as `[null, value]`;
 * - update: only the fields whose value changed (`updated_at` always does);
 * - delete: every stored field that had a value, as `[value, null]`.
 *
 * Values the API never shows are `[FILTERED]` (see `loggedValue`), and the whole is bounded so
 * the entry stays far below DynamoDB's 400 KB item limit whatever the record holds.
 */
export type ChangeEvent = 'create' | 'update' | 'delete';
export type ObjectChanges = Record<string, [unknown, unknown]>;

export const FILTERED = '[FILTERED]';
export const TRUNCATED = '[TRUNCATED]';

export const CHANGE_LOG_LIMITS = {
  /** A value larger than this (DynamoDB bytes) is shortened: strings to `stringChars`, others to a marker. */
  valueBytes: 4 * 1024,
  stringChars: 1000,
  /** Values (and field names) of one entry kept whole; past it, fields keep only their names. */
  changesBytes: 64 * 1024,
  /**
   * All of `object_changes`, markers included; fields past it are left out. With the entry's
   * other columns (well under 2 KB) an entry stays far below the 300 KB a Put may write
   * (shared/db/item-limits.ts) and DynamoDB's 400 KB: never refused there.
   */
  entryBytes: 96 * 1024,
} as const;

/** Storage bookkeeping, the same for every record of a company, or a copy of `updated_at`. */
const UNLOGGED: ReadonlySet<string> = new Set(['company_id', 'user_updated_at']);

/** Names that hold credentials whatever the resource declares: filtered even if shown. */
const SECRET_NAME = /secret|password|private_key|audio_base64/i;

/** Which stored fields the log may show: the resource's shown columns, minus what it hides. */
export interface LogPolicy {
  /** Columns show/list/CSV answer with. */
  shown: ReadonlySet<string>;
  /** Shown only in the response of the write that set them, or instructions: never logged. */
  hidden: ReadonlySet<string>;
}

export function isLogged(policy: LogPolicy, field: string): boolean {
  return policy.shown.has(field) && !policy.hidden.has(field) && !SECRET_NAME.test(field);
}

/** A value as the log keeps it: unset stays null (that reveals nothing), a hidden value is `[FILTERED]`. */
function loggedValue(policy: LogPolicy, field: string, value: unknown): unknown {
  if (value === undefined || value === null) return null;
  return isLogged(policy, field) ? value : FILTERED;
}

/** Key order does not make two maps different. */
function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, member: unknown) =>
    member && typeof member === 'object' && !Array.isArray(member)
      ? Object.fromEntries(Object.entries(member as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : member,
  );
}

export function sameValue(a: unknown, b: unknown): boolean {
  return canonical(a ?? null) === canonical(b ?? null);
}

/** The changes of one write, filtered, not yet bounded. */
export function objectChanges(
  policy: LogPolicy,
  event: ChangeEvent,
  before: Record<string, unknown> | undefined,
  after: Record<string, unknown> | undefined,
): ObjectChanges {
  const changes: ObjectChanges = {};
  const names = new Set([...Object.keys(before ?? {}), ...Object.keys(after ?? {})]);
  for (const name of names) {
    if (UNLOGGED.has(name)) continue;
    const old = event === 'create' ? null : (before?.[name] ?? null);
    const now = event === 'delete' ? null : (after?.[name] ?? null);
    if (event !== 'update' ? old === null && now === null : sameValue(old, now)) continue;
    changes[name] = [loggedValue(policy, name, old), loggedValue(policy, name, now)];
  }
  return changes;
}

function boundValue(value: unknown): { value: unknown; cut: boolean } {
  const bytes = valueSize(value);
  if (bytes <= CHANGE_LOG_LIMITS.valueBytes) return { value, cut: false };
  if (typeof value === 'string') return { value: `${value.slice(0, CHANGE_LOG_LIMITS.stringChars)}…${TRUNCATED}`, cut: true };
  return { value: `${TRUNCATED} ${bytes} bytes`, cut: true };
}

/**
 * The changes within CHANGE_LOG_LIMITS: long values shortened; once `changesBytes` is spent, the
 * remaining fields keep their names with `[TRUNCATED]` values (that they changed is still told),
 * and past `entryBytes` they are left out. `truncated` says whether anything was cut. Never
 * throws: the log never fails the write it describes.
 */
export function boundChanges(changes: ObjectChanges): { changes: ObjectChanges; truncated: boolean } {
  const bounded: ObjectChanges = {};
  const markerBytes = 2 * valueSize(TRUNCATED);
  let truncated = false;
  let bytes = 3;
  for (const [name, [old, now]] of Object.entries(changes)) {
    // As valueSize counts a member: its name, the pair's array and the map's entry.
    const nameBytes = Buffer.byteLength(name, 'utf8') + 6;
    const a = boundValue(old);
    const b = boundValue(now);
    const size = nameBytes + valueSize(a.value) + valueSize(b.value);
    if (bytes + size > CHANGE_LOG_LIMITS.changesBytes) {
      truncated = true;
      if (bytes + nameBytes + markerBytes > CHANGE_LOG_LIMITS.entryBytes) continue;
      bounded[name] = [TRUNCATED, TRUNCATED];
      bytes += nameBytes + markerBytes;
      continue;
    }
    bytes += size;
    bounded[name] = [a.value, b.value];
    truncated ||= a.cut || b.cut;
  }
  return { changes: bounded, truncated };
}
