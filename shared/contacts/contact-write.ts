import * as v from 'valibot';
import { blankable, jsonObject } from '../http/param-schemas.js';
import { mergedData } from '../leads/lead-changes.js';
import { tokenValue } from '../leads/lead-params.js';
import { emailParam } from '../resources/field-schemas.js';
import { getContact, saveContact, type ContactItem } from './contact-store.js';

const text = (max: number) => v.optional(blankable(v.pipe(v.string('is not a string'), v.trim(), v.maxLength(max, `is too long (maximum is ${max} characters)`))));

/** A contact's writable fields: `PUT /api/v1/contacts/:id` and each row of a contact import. */
export const contactUpdateSchema = v.object({
  first_name: text(200),
  last_name: text(200),
  email: v.optional(blankable(emailParam)),
  notes: text(5000),
  data: v.optional(jsonObject(v.record(v.string(), v.unknown()), 'is not a hash')),
});

export type ContactFields = v.InferOutput<typeof contactUpdateSchema>;

/**
 * Sets the fields given on the contact of `number` (data merged, null clears a field), creating
 * it when the company never wrote one; retried when a concurrent write moved it on. Returns the
 * contact as saved and the version it had before.
 */
export async function writeContactFields(companyId: number, number: string, fields: ContactFields, at: string): Promise<{ contact: ContactItem; before: number }> {
  for (let attempt = 0; attempt < 5; attempt++) {
    const before = await getContact(companyId, number);
    const contact: ContactItem = before
      ? structuredClone(before)
      : { number, first_name: null, last_name: null, email: null, notes: null, data: {}, created_at: at, updated_at: at, version: 0 };
    for (const field of ['first_name', 'last_name', 'email', 'notes'] as const) if (fields[field] !== undefined) contact[field] = fields[field];
    // The same token limits as a lead's data (422 naming data when the merge would pass them).
    if (fields.data) contact.data = mergedData(contact.data, Object.fromEntries(Object.entries(fields.data).map(([key, value]) => [key, tokenValue(value)])), 'contact');
    contact.updated_at = at;
    const version = Number(before?.version ?? 0);
    if (await saveContact(companyId, contact, version)) return { contact: { ...contact, version: version + 1 }, before: version };
  }
  throw new Error(`Contact ${number} kept changing under this update`);
}
