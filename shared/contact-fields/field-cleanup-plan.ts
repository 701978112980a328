import type { BackgroundWork } from '../ports/background-work.js';

/**
 * The pure part of a deleted contact field's cleanup (shared/contact-fields/field-cleanup.ts):
 * the background work's message, which values of a page of the company's values go, where the
 * next page starts, and what the views become. No I/O: the lead runner's handler parses messages
 * with it.
 */
export const FIELD_CLEANUP_KIND = 'contact_field_cleanup' satisfies BackgroundWork['kind'];

export interface FieldCleanupRef {
  companyId: number;
  fieldId: number;
}

const isId = (value: unknown): value is number => typeof value === 'number' && Number.isSafeInteger(value) && value >= 1;

/** The cleanup a queued message asks to advance (`{"kind": "contact_field_cleanup", "companyId": 1, "fieldId": 2}`), or undefined when it is not one. */
export function fieldCleanupOf(message: unknown): FieldCleanupRef | undefined {
  if (!message || typeof message !== 'object' || Array.isArray(message)) return undefined;
  const value = message as Record<string, unknown>;
  if (value.kind !== FIELD_CLEANUP_KIND) return undefined;
  return isId(value.companyId) && isId(value.fieldId) ? { companyId: value.companyId, fieldId: value.fieldId } : undefined;
}

/**
 * One page of the company's values (in id order, read after `cursor`): the values of the field,
 * to delete, and the cursor to carry on from (the page's last id; unchanged for an empty page).
 */
export function pageOfCleanup<T extends { id: number; contact_field_id?: unknown }>(fieldId: number, values: readonly T[], cursor: number): { doomed: T[]; cursor: number } {
  const last = values[values.length - 1];
  return { doomed: values.filter((value) => value.contact_field_id === fieldId), cursor: last ? Math.max(cursor, last.id) : cursor };
}

/** The views that list the field, each with its list without it (order kept). */
export function viewsWithout(fieldId: number, views: ReadonlyArray<{ id: number; contact_field_ids?: unknown }>): Array<{ id: number; contact_field_ids: number[] }> {
  return views
    .map((view) => ({ id: view.id, listed: Array.isArray(view.contact_field_ids) ? (view.contact_field_ids as number[]) : [] }))
    .filter(({ listed }) => listed.includes(fieldId))
    .map(({ id, listed }) => ({ id, contact_field_ids: listed.filter((member) => member !== fieldId) }));
}

/** `items` in groups of at most `size`, in order. */
export function inGroups<T>(items: readonly T[], size: number): T[][] {
  const groups: T[][] = [];
  for (let start = 0; start < items.length; start += size) groups.push(items.slice(start, start + size));
  return groups;
}
