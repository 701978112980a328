import { isHttpUrl, parseBooleanWord } from '../http/param-schemas.js';
import { validStoredNumber } from '../phone-validation.js';

/**
 * The declared types of contact fields and the check of one value against its field's type.
 * Pure: the contact_fields default value and every contact_field_values value go through
 * `checkFieldValue`, which answers the stored (normalised) form or the 422 message.
 */
export const FIELD_TYPES = ['string', 'text', 'integer', 'decimal', 'boolean', 'date', 'datetime', 'email', 'phone', 'url', 'select', 'multi_select'] as const;
export type FieldType = (typeof FIELD_TYPES)[number];

/** Types whose values come from the field's `options`. */
export const OPTION_TYPES: readonly FieldType[] = ['select', 'multi_select'];

export const FIELD_LIMITS = {
  /** A `string` value (one line). */
  stringChars: 255,
  /** A `text` value (notes, several lines). */
  textChars: 10_000,
  urlChars: 2_048,
  /** Options of a select field, and the length of each. */
  options: 100,
  optionChars: 100,
  /** Magnitude of integer and decimal values (amounts stay exact in a double). */
  numberMagnitude: 1e12,
} as const;

export interface FieldDeclaration {
  field_type: FieldType;
  options?: readonly string[] | null;
}

export type FieldValueCheck = { ok: true; value: unknown } | { ok: false; message: string };

const ok = (value: unknown): FieldValueCheck => ({ ok: true, value });
const fail = (message: string): FieldValueCheck => ({ ok: false, message });

const INTEGER_TEXT = /^-?\d{1,16}$/;
const DECIMAL_TEXT = /^-?(\d{1,16}(\.\d{0,12})?|\.\d{1,12})$/;
const DATE_TEXT = /^(\d{4})-(\d{2})-(\d{2})$/;
/** ISO 8601 date and time with seconds optional, fraction optional, and Z or an offset required. */
const DATETIME_TEXT = /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})$/;
const EMAIL = /^[^\s@,]+@[^\s@,.]+(?:\.[^\s@,.]+)+$/;

function text(value: unknown): string | undefined {
  if (typeof value === 'string') return value.trim();
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  return undefined;
}

function isCalendarDate(year: number, month: number, day: number): boolean {
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

function checkNumber(value: unknown, pattern: RegExp, integer: boolean): FieldValueCheck {
  const raw = typeof value === 'number' ? value : typeof value === 'string' && pattern.test(value.trim()) ? Number(value.trim()) : Number.NaN;
  const name = integer ? 'an integer' : 'a number';
  if (!Number.isFinite(raw) || (integer && !Number.isInteger(raw))) return fail(`is not ${name}`);
  if (Math.abs(raw) > FIELD_LIMITS.numberMagnitude) return fail(`must be between -${FIELD_LIMITS.numberMagnitude} and ${FIELD_LIMITS.numberMagnitude}`);
  return ok(raw);
}

function checkOptions(value: unknown, options: readonly string[], multiple: boolean): FieldValueCheck {
  const listed = `(${options.join(', ')})`;
  if (!multiple) {
    const chosen = text(value);
    return chosen !== undefined && options.includes(chosen) ? ok(chosen) : fail(`is not included in the list ${listed}`);
  }
  const items = typeof value === 'string' ? value.split(',').map((part) => part.trim()).filter(Boolean) : value;
  if (!Array.isArray(items) || items.length > options.length) return fail(`is not a list of options ${listed}`);
  const unknown = items.filter((item) => typeof item !== 'string' || !options.includes(item.trim()));
  if (unknown.length) return fail(`has values not in the list ${listed}`);
  // Stored in the options' order, each once, so equal selections compare equal.
  const chosen = new Set((items as string[]).map((item) => item.trim()));
  return ok(options.filter((option) => chosen.has(option)));
}

/**
 * Checks one value against a field's declared type. Blank values ('' or null, an empty
 * multi-select) are not this function's business: the caller decides whether blank is allowed.
 */
export function checkFieldValue(field: FieldDeclaration, value: unknown): FieldValueCheck {
  switch (field.field_type) {
    case 'string':
    case 'text': {
      const max = field.field_type === 'string' ? FIELD_LIMITS.stringChars : FIELD_LIMITS.textChars;
      const chosen = text(value);
      if (chosen === undefined) return fail('is not a string');
      if (field.field_type === 'string' && /[\r\n]/.test(chosen)) return fail('must be one line (use a text field for several)');
      return chosen.length > max ? fail(`is too long (maximum is ${max} characters)`) : ok(chosen);
    }
    case 'integer':
      return checkNumber(value, INTEGER_TEXT, true);
    case 'decimal':
      return checkNumber(value, DECIMAL_TEXT, false);
    case 'boolean': {
      const parsed = parseBooleanWord(typeof value === 'string' ? value.trim().toLowerCase() : value);
      return parsed === undefined ? fail('is not a valid boolean (use true or false)') : ok(parsed);
    }
    case 'date': {
      const chosen = typeof value === 'string' ? value.trim() : '';
      const match = DATE_TEXT.exec(chosen);
      return match && isCalendarDate(Number(match[1]), Number(match[2]), Number(match[3])) ? ok(chosen) : fail('is not a date (YYYY-MM-DD)');
    }
    case 'datetime': {
      const chosen = typeof value === 'string' ? value.trim() : '';
      const match = DATE_TEXT.exec(chosen.slice(0, 10));
      const parsed = DATETIME_TEXT.test(chosen) && match && isCalendarDate(Number(match[1]), Number(match[2]), Number(match[3])) ? new Date(chosen.replace(' ', 'T')) : undefined;
      return parsed && !Number.isNaN(parsed.getTime()) ? ok(parsed.toISOString()) : fail('is not a date and time (ISO 8601 with a time zone, e.g. 2026-01-31T09:30:00Z)');
    }
    case 'email': {
      const chosen = typeof value === 'string' ? value.trim().toLowerCase() : '';
      if (chosen.length > 254) return fail('is too long (maximum is 254 characters)');
      return EMAIL.test(chosen) ? ok(chosen) : fail('is not a valid e-mail address');
    }
    case 'phone': {
      const chosen = text(value);
      // A number stored on a contact or lead: valid under the full metadata, not only possible.
      const number = chosen !== undefined && chosen.length <= 32 ? validStoredNumber(chosen) : undefined;
      return number ? ok(number) : fail('is not a phone number');
    }
    case 'url': {
      const chosen = typeof value === 'string' ? value.trim() : '';
      if (chosen.length > FIELD_LIMITS.urlChars) return fail(`is too long (maximum is ${FIELD_LIMITS.urlChars} characters)`);
      return isHttpUrl(chosen) ? ok(chosen) : fail('is not a valid URL');
    }
    case 'select':
    case 'multi_select':
      return checkOptions(value, field.options ?? [], field.field_type === 'multi_select');
  }
}

/** Is this value blank (no value): null, '', or an empty list. */
export function isBlankValue(value: unknown): boolean {
  return value === null || value === undefined || (typeof value === 'string' && value.trim() === '') || (Array.isArray(value) && value.length === 0);
}

/**
 * Rules of a field declaration as it will be stored (options where the type needs them, a
 * default that is a value of the type). Errors per field; the normalised default when valid.
 */
export function checkFieldDeclaration(field: FieldDeclaration & { default_value?: unknown }): { errors: Record<string, string[]>; defaultValue: unknown } {
  const errors: Record<string, string[]> = {};
  const options = field.options ?? [];
  if (OPTION_TYPES.includes(field.field_type) && options.length === 0) errors.options = [`can't be blank for a ${field.field_type} field`];
  if (!OPTION_TYPES.includes(field.field_type) && options.length > 0) errors.options = [`must be blank for a ${field.field_type} field (only select and multi_select have options)`];
  if (new Set(options).size !== options.length) errors.options = ['has duplicate options'];
  let defaultValue: unknown = null;
  if (!isBlankValue(field.default_value) && !errors.options) {
    const checked = checkFieldValue(field, field.default_value);
    if (checked.ok) defaultValue = checked.value;
    else errors.default_value = [checked.message];
  }
  return { errors, defaultValue };
}
