import type * as v from 'valibot';
import { contactUpdateSchema } from '../contacts/contact-write.js';
import { ValidationError } from '../http/errors.js';
import { validate } from '../http/validation.js';
import { validStoredNumber } from '../phone-validation.js';

/**
 * The rules one row of a contact import follows (pure: plain values in, a contact or errors out).
 * The background step (import-run.ts) reads the rows and writes what these rules accept.
 */

/** The caller number column of a contacts CSV: the first of these present in the header. */
export const NUMBER_COLUMNS = ['caller_id', 'caller_number', 'phone_number', 'phone', 'number'] as const;
const CONTACT_COLUMNS = ['first_name', 'last_name', 'email', 'notes'] as const;

export interface RowError {
  row: number;
  errors: Record<string, string[]>;
}

/** A contact row's number and fields; unknown columns are the contact's data. Throws ValidationError. */
export function contactRow(values: Record<string, string>): { number: string; fields: v.InferOutput<typeof contactUpdateSchema> } {
  const numberColumn = NUMBER_COLUMNS.find((column) => values[column] !== undefined);
  // A contact stored: valid under the full metadata, not only possible.
  const number = numberColumn ? validStoredNumber(values[numberColumn]!.slice(0, 40)) : undefined;
  const input: Record<string, unknown> = {};
  const data: Record<string, string> = {};
  for (const [column, value] of Object.entries(values)) {
    if ((NUMBER_COLUMNS as readonly string[]).includes(column)) continue;
    if ((CONTACT_COLUMNS as readonly string[]).includes(column)) input[column] = value;
    else data[column] = value;
  }
  if (Object.keys(data).length) input.data = data;
  let fields: v.InferOutput<typeof contactUpdateSchema> = {};
  let errors: Record<string, string[]> = {};
  try {
    fields = validate(contactUpdateSchema, input);
  } catch (error) {
    if (!(error instanceof ValidationError)) throw error;
    errors = { ...error.errors };
  }
  if (!number) errors = { [numberColumn ?? 'caller_id']: [numberColumn ? 'is not a phone number' : "can't be blank"], ...errors };
  if (Object.keys(errors).length) throw new ValidationError(errors);
  return { number: number!, fields };
}

/** Why a parsed CSV cannot be imported as the import's type (contacts need a number column), or undefined. */
export function columnsProblem(importType: unknown, columns: readonly string[]): string | undefined {
  if (importType === 'leads' || NUMBER_COLUMNS.some((column) => columns.includes(column))) return undefined;
  return `has no caller number column (one of ${NUMBER_COLUMNS.join(', ')})`;
}

/**
 * A lead row's error before it is submitted: a contact list's row names a contact, so one without
 * a number or an e-mail is a mistake in the file, although POST /api/v1/leads takes a contactless lead.
 */
export function leadRowProblem(contact: { caller_id?: unknown; email?: unknown }): Record<string, string[]> | undefined {
  return !contact.caller_id && !contact.email ? { caller_id: ["can't be blank when email is blank"] } : undefined;
}

/** The error of every lead row once the import's offer or schedule is gone. */
export function leadOwnerGone(record: Readonly<Record<string, unknown>>): Record<string, string[]> {
  return { [record.offer_id ? 'offer_id' : 'schedule_id']: ['no longer exists'] };
}
