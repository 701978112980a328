import { getRecords, queryAllRecords, updateRecord } from '../db/records.js';
import { ValidationError } from '../http/errors.js';
import type { HookContext } from '../resources/define.js';
import { appliesTo, CONTACT_FIELDS, CONTACT_FIELD_VIEWS, type ContactField } from './field-store.js';

/**
 * The contact_field_views resource's behaviour: every field a view lists must apply to the
 * view's kind (contacts or leads); a view made the default of its kind takes the flag from the
 * kind's previous default, so each kind has at most one.
 */

async function checkFieldsApply(companyId: number, view: Record<string, unknown>): Promise<void> {
  const ids = (view.contact_field_ids as number[] | undefined) ?? [];
  const kind = view.applies_to as 'contacts' | 'leads';
  const fields = (await getRecords(companyId, CONTACT_FIELDS, ids)) as ContactField[];
  // Unknown ids are the engine's foreign-key 422; here only the fields of another kind.
  const other = fields.filter((field) => !appliesTo(field, kind)).map((field) => field.id);
  if (other.length) throw new ValidationError({ contact_field_ids: [`apply to another kind than ${kind}: ${other.join(', ')}`] });
}

export async function prepareCreate(context: HookContext, fields: Record<string, unknown>): Promise<Record<string, unknown>> {
  await checkFieldsApply(context.companyId, { applies_to: 'contacts', ...fields });
  return fields;
}

export async function prepareUpdate(context: HookContext, before: Record<string, unknown>, fields: Record<string, unknown>): Promise<Record<string, unknown>> {
  if ('contact_field_ids' in fields || 'applies_to' in fields) await checkFieldsApply(context.companyId, { ...before, ...fields });
  return {};
}

export async function afterWrite(context: HookContext, change: { after: Record<string, unknown> }): Promise<void> {
  const view = change.after;
  if (view.is_default !== true) return;
  const now = context.now.toISOString();
  for (const other of await queryAllRecords(context.companyId, CONTACT_FIELD_VIEWS)) {
    if (other.id !== view.id && other.is_default === true && other.applies_to === view.applies_to) {
      await updateRecord(context.companyId, CONTACT_FIELD_VIEWS, other.id, { is_default: false, updated_at: now });
    }
  }
}
