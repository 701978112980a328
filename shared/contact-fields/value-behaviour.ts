import { callsOfCaller } from '../calls/call-store.js';
import { getContact } from '../contacts/contact-store.js';
import { ValidationError, type FieldErrors } from '../http/errors.js';
import { getLead, leadsOfContact } from '../leads/lead-store.js';
import { tableName } from '../db/client.js';
import { keys } from '../db/keys.js';
import type { CreateCheck, HookContext } from '../resources/define.js';
import { checkFieldValue, isBlankValue } from './field-types.js';
import { appliesTo, CONTACT_FIELDS, getContactField, type ContactField, type OwnerKind } from './field-store.js';
import { FIELD_OWNER } from './value-owner.js';

/**
 * The contact_field_values resource's behaviour: the owner is exactly one contact (a caller
 * number the company knows: a contact record, a lead or a call of that number) or one lead of
 * the caller's company; the field must apply to that kind of owner; the value is checked and
 * normalised by the field's declared type. A value left out on create takes the field's default.
 */

/** The stored form of `value` for `field`, or the 422 of `value`. */
function checkedValue(field: ContactField, value: unknown): unknown {
  if (isBlankValue(value)) {
    if (field.required) throw new ValidationError({ value: [`can't be blank (${field.key} is required)`] });
    return null;
  }
  const checked = checkFieldValue(field, value);
  if (!checked.ok) throw new ValidationError({ value: [checked.message] });
  return checked.value;
}

async function contactKnown(companyId: number, number: string): Promise<boolean> {
  const [contact, leads, calls] = await Promise.all([getContact(companyId, number), leadsOfContact(companyId, number, undefined, 1), callsOfCaller(companyId, number, 1)]);
  return contact !== undefined || leads.length > 0 || calls.length > 0;
}

export async function prepareCreate(context: HookContext, fields: Record<string, unknown>): Promise<Record<string, unknown>> {
  const fieldId = Number(fields.contact_field_id);
  const contactId = (fields.contact_id as string | null | undefined) ?? null;
  const leadId = (fields.lead_id as number | null | undefined) ?? null;
  if ((contactId === null) === (leadId === null)) {
    const message = contactId === null ? "can't be blank: give contact_id or lead_id" : 'give contact_id or lead_id, not both';
    throw new ValidationError({ contact_id: [message], lead_id: [message] });
  }
  const kind: OwnerKind = leadId === null ? 'contacts' : 'leads';
  const [field, ownerExists] = await Promise.all([
    getContactField(context.companyId, fieldId),
    leadId === null ? contactKnown(context.companyId, contactId!) : getLead(context.companyId, leadId).then(Boolean),
  ]);
  const errors: FieldErrors = {};
  if (!field) errors.contact_field_id = [`does not exist: ${fieldId}`];
  else if (!appliesTo(field, kind)) errors.contact_field_id = [`applies to ${field.applies_to} only, not to ${kind}`];
  if (!ownerExists) errors[leadId === null ? 'contact_id' : 'lead_id'] = [`does not exist: ${leadId ?? contactId}`];
  if (Object.keys(errors).length) throw new ValidationError(errors);
  const value = checkedValue(field!, 'value' in fields ? fields.value : field!.default_value);
  const owner = leadId === null ? `contact:${contactId}` : `lead:${leadId}`;
  return { contact_field_id: fieldId, contact_id: contactId, lead_id: leadId, value, [FIELD_OWNER]: `${fieldId}:${owner}` };
}

export async function prepareUpdate(context: HookContext, before: Record<string, unknown>, fields: Record<string, unknown>): Promise<Record<string, unknown>> {
  if (!('value' in fields)) return {};
  const field = await getContactField(context.companyId, Number(before.contact_field_id));
  // A field's values go with it (hidden at once, deleted in the background); an update that reads no field is refused.
  if (!field) throw new ValidationError({ contact_field_id: [`does not exist: ${before.contact_field_id}`] });
  return { value: checkedValue(field, fields.value) };
}

/**
 * The field must still exist when the value is written: prepareCreate read it, but a DELETE of
 * the field committed since (and its background cleanup, done already) would leave the value an
 * orphan that no cleanup takes away. One ConditionCheck in the create's transaction.
 */
export function createChecks(context: HookContext, record: Record<string, unknown>): CreateCheck[] {
  const fieldId = Number(record.contact_field_id);
  return [
    {
      check: { ConditionCheck: { TableName: tableName, Key: keys.record(context.companyId, CONTACT_FIELDS, fieldId), ConditionExpression: 'attribute_exists(pk)' } },
      errors: { contact_field_id: [`does not exist: ${fieldId}`] },
    },
  ];
}
