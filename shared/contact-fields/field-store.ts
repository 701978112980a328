import { getRecord, queryRecordPage, type StoredRecord } from '../db/records.js';
import type { FieldType } from './field-types.js';

/** Reads of contact fields and their values that the three resources' hooks share. */

export const CONTACT_FIELDS = 'contact_fields';
export const CONTACT_FIELD_VALUES = 'contact_field_values';
export const CONTACT_FIELD_VIEWS = 'contact_field_views';

export interface ContactField extends StoredRecord {
  key: string;
  field_type: FieldType;
  options: string[] | null;
  required: boolean;
  applies_to: 'contacts' | 'leads' | 'both';
  default_value: unknown;
}

export type OwnerKind = 'contacts' | 'leads';

export function appliesTo(field: Pick<ContactField, 'applies_to'>, kind: OwnerKind): boolean {
  return field.applies_to === 'both' || field.applies_to === kind;
}

export async function getContactField(companyId: number, id: number): Promise<ContactField | undefined> {
  return (await getRecord(companyId, CONTACT_FIELDS, id)) as ContactField | undefined;
}

/**
 * The first value of a field that passes `accept`, if any. Reads the company's values partition
 * until one is found (a field's type changes rarely; this is its price).
 */
export async function firstValueOf(companyId: number, fieldId: number, accept: (value: StoredRecord) => boolean = () => true): Promise<StoredRecord | undefined> {
  const { records } = await queryRecordPage({
    companyId,
    resource: CONTACT_FIELD_VALUES,
    direction: 'asc',
    limit: 1,
    accept: (value) => value.contact_field_id === fieldId && accept(value),
  });
  return records[0];
}
