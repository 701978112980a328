import type { HookContext } from '../resources/define.js';
import { SHORTEST_VALUE_SHOWING_LAST, SHOWN_LAST_CHARACTERS } from './secret-fields.js';
import { encryptFields } from './encrypted-fields.js';

/**
 * A secret item's value: encrypted with its record's uuid in the context, stored as
 * value_ciphertext; only its last characters (of a long enough value) and the time it was set
 * are kept in the clear.
 */
async function storedValue(context: HookContext, uuid: string, value: string): Promise<Record<string, unknown>> {
  return {
    ...(await encryptFields(context.companyId, 'secret_items', uuid, { value })),
    value_last4: [...value].length >= SHORTEST_VALUE_SHOWING_LAST ? [...value].slice(-SHOWN_LAST_CHARACTERS).join('') : null,
    value_updated_at: context.now.toISOString(),
  };
}

/** On create: once every check has passed, just before the write (nothing to give back if it fails). */
export async function acquire(context: HookContext, draft: { record: Record<string, unknown>; fields: Record<string, unknown> }) {
  return { fields: await storedValue(context, String(draft.record.uuid), String(draft.fields.value)), release: async () => {} };
}

/** On update: a new value replaces the ciphertext (re-encrypted); without one the stored value stays. */
export async function prepareUpdate(context: HookContext, before: Record<string, unknown>, fields: Record<string, unknown>) {
  return typeof fields.value === 'string' ? storedValue(context, String(before.uuid), fields.value) : {};
}
