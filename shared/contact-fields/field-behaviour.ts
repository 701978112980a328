import type { TransactItem } from '../db/client.js';
import { ConflictError } from '../http/errors.js';
import { logger } from '../logger.js';
import type { HookContext } from '../resources/define.js';
import { checkFieldDeclaration, type FieldDeclaration } from './field-types.js';
import { continueFieldCleanup } from './field-cleanup-queue.js';
import { cleanupItemWrite } from './field-cleanup-store.js';
import { appliesTo, firstValueOf, type ContactField } from './field-store.js';

/**
 * The contact_fields resource's behaviour beyond its own record: the default value is stored in
 * its normalised form; the type, options and owners of a field that has values cannot change
 * (its values were checked against them: a 409 says to delete the values first); a deleted
 * field's values and its place in views go in the background (field-cleanup.ts), its values
 * hidden meanwhile.
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

/** The field's cleanup item rides in its delete: the cleanup exists exactly when the delete does. */
export function deleteWrites(context: HookContext, record: Record<string, unknown>): TransactItem[] {
  return [cleanupItemWrite({ companyId: context.companyId, fieldId: Number(record.id) }, context.now)];
}

/**
 * Queues the cleanup of the deleted field's values and views (shared/contact-fields/field-cleanup.ts);
 * the DELETE answers at once. A queueing failure is logged, not answered: the field is deleted and
 * its values hidden, and the recovery sweep queues the cleanup again (field-cleanup-queue.ts).
 */
export async function afterDelete(context: HookContext, record: Record<string, unknown>): Promise<void> {
  const ref = { companyId: context.companyId, fieldId: Number(record.id) };
  try {
    await continueFieldCleanup(ref);
  } catch (error) {
    logger.error('could not queue a deleted contact field’s cleanup (the recovery sweep queues it)', { ...ref, error });
  }
}
