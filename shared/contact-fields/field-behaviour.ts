import { deleteRecord, queryAllRecords, updateRecord } from '../db/records.js';
import { ConflictError } from '../http/errors.js';
import type { HookContext } from '../resources/define.js';
import { lookupsOf } from '../resources/engine.js';
import { contactFieldValues } from '../resources/contact-fields.js';
import { checkFieldDeclaration, type FieldDeclaration } from './field-types.js';
import { appliesTo, CONTACT_FIELD_VALUES, CONTACT_FIELD_VIEWS, firstValueOf, type ContactField } from './field-store.js';

/**
 * The contact_fields resource's behaviour beyond its own record: the default value is stored in
 * its normalised form; the type, options and owners of a field that has values cannot change
 * (its values were checked against them: a 409 says to delete the values first); a deleted
 * field takes its values with it and leaves the views that listed it.
 */

function normalisedDefault(record: Record<string, unknown>): unknown {
  const { errors, defaultValue } = checkFieldDeclaration(record as unknown as FieldDeclaration & { default_value?: unknown });
  // Invalid: left as sent, for the resource's check to refuse with its message.
  return Object.keys(errors).length ? record.default_value : defaultValue;
}

export async function prepareCreate(_context: HookContext, fields: Record<string, unknown>): Promise<Record<string, unknown>> {
  if (!('default_value' in fields)) return fields;
  return { ...fields, default_value: normalisedDefault({ field_type: 'string', ...fields }) };
}

const sameOptions = (a: unknown, b: unknown) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);

export async function prepareUpdate(context: HookContext, before: Record<string, unknown>, fields: Record<string, unknown>): Promise<Record<string, unknown>> {
  const after = { ...before, ...fields } as ContactField;
  const field = before as ContactField;
  const retyped = after.field_type !== field.field_type || !sameOptions(after.options, field.options);
  const lostOwners = (['contacts', 'leads'] as const).filter((kind) => appliesTo(field, kind) && !appliesTo(after, kind));
  if (retyped || lostOwners.length) {
    const holder = await firstValueOf(context.companyId, field.id, (value) => retyped || lostOwners.includes(value.lead_id ? 'leads' : 'contacts'));
    if (holder) {
      throw new ConflictError(
        retyped ? (after.field_type !== field.field_type ? 'field_type' : 'options') : 'applies_to',
        `cannot change while the field has values (value ${holder.id} and maybe more): delete them first`,
      );
    }
  }
  return 'default_value' in fields || 'field_type' in fields || 'options' in fields ? { default_value: normalisedDefault(after) } : {};
}

export async function afterDelete(context: HookContext, record: Record<string, unknown>): Promise<void> {
  const id = Number(record.id);
  const now = context.now.toISOString();
  for (const value of await queryAllRecords(context.companyId, CONTACT_FIELD_VALUES)) {
    if (value.contact_field_id !== id) continue;
    await deleteRecord(context.companyId, CONTACT_FIELD_VALUES, value.id, lookupsOf(contactFieldValues, context.companyId, value).map((lookup) => lookup.key));
  }
  for (const view of await queryAllRecords(context.companyId, CONTACT_FIELD_VIEWS)) {
    const listed = Array.isArray(view.contact_field_ids) ? (view.contact_field_ids as number[]) : [];
    if (listed.includes(id)) await updateRecord(context.companyId, CONTACT_FIELD_VIEWS, view.id, { contact_field_ids: listed.filter((member) => member !== id), updated_at: now });
  }
}
