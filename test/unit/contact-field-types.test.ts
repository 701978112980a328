import { describe, expect, it } from 'vitest';
import { checkFieldDeclaration, checkFieldValue, FIELD_LIMITS, isBlankValue, type FieldDeclaration } from '../../shared/contact-fields/field-types.js';

/** The check of contact field values by declared type (shared/contact-fields/field-types.ts), with plain values. */
const accepts = (field: FieldDeclaration, value: unknown, stored: unknown) => expect(checkFieldValue(field, value)).toEqual({ ok: true, value: stored });
const rejects = (field: FieldDeclaration, value: unknown, message: string) => expect(checkFieldValue(field, value)).toEqual({ ok: false, message });

describe('checkFieldValue', () => {
  it('string: one trimmed line within 255 characters; text: several lines within 10,000', () => {
    accepts({ field_type: 'string' }, '  Gold  ', 'Gold');
    accepts({ field_type: 'string' }, 42, '42');
    rejects({ field_type: 'string' }, 'a\nb', 'must be one line (use a text field for several)');
    rejects({ field_type: 'string' }, 'x'.repeat(256), 'is too long (maximum is 255 characters)');
    rejects({ field_type: 'string' }, { a: 1 }, 'is not a string');
    accepts({ field_type: 'text' }, 'a\nb', 'a\nb');
    rejects({ field_type: 'text' }, 'x'.repeat(FIELD_LIMITS.textChars + 1), 'is too long (maximum is 10000 characters)');
  });

  it('integer and decimal: numbers or numeric strings, bounded', () => {
    accepts({ field_type: 'integer' }, '42', 42);
    accepts({ field_type: 'integer' }, -7, -7);
    rejects({ field_type: 'integer' }, '4.5', 'is not an integer');
    rejects({ field_type: 'integer' }, 4.5, 'is not an integer');
    rejects({ field_type: 'integer' }, 'ten', 'is not an integer');
    rejects({ field_type: 'integer' }, 1e13, 'must be between -1000000000000 and 1000000000000');
    accepts({ field_type: 'decimal' }, '19.99', 19.99);
    accepts({ field_type: 'decimal' }, 3, 3);
    rejects({ field_type: 'decimal' }, '1e5', 'is not a number');
    rejects({ field_type: 'decimal' }, Number.NaN, 'is not a number');
    rejects({ field_type: 'decimal' }, true, 'is not a number');
  });

  it('boolean: the API boolean words', () => {
    accepts({ field_type: 'boolean' }, 'Yes', true);
    accepts({ field_type: 'boolean' }, false, false);
    accepts({ field_type: 'boolean' }, '0', false);
    rejects({ field_type: 'boolean' }, 'maybe', 'is not a valid boolean (use true or false)');
  });

  it('date: a calendar date as YYYY-MM-DD; datetime: ISO 8601 with a zone, stored in UTC', () => {
    accepts({ field_type: 'date' }, '2024-02-29', '2024-02-29');
    rejects({ field_type: 'date' }, '2023-02-29', 'is not a date (YYYY-MM-DD)');
    rejects({ field_type: 'date' }, '02/03/2024', 'is not a date (YYYY-MM-DD)');
    accepts({ field_type: 'datetime' }, '2026-01-31T09:30:00-05:00', '2026-01-31T14:30:00.000Z');
    accepts({ field_type: 'datetime' }, '2026-01-31 09:30Z', '2026-01-31T09:30:00.000Z');
    rejects({ field_type: 'datetime' }, '2026-01-31T09:30:00', 'is not a date and time (ISO 8601 with a time zone, e.g. 2026-01-31T09:30:00Z)');
    rejects({ field_type: 'datetime' }, '2026-02-30T09:30:00Z', 'is not a date and time (ISO 8601 with a time zone, e.g. 2026-01-31T09:30:00Z)');
  });

  it('email, phone (E.164) and url', () => {
    accepts({ field_type: 'email' }, ' Ann@Example.COM ', 'ann@example.com');
    rejects({ field_type: 'email' }, 'ann@example', 'is not a valid e-mail address');
    accepts({ field_type: 'phone' }, '(415) 555-2671', '+14155552671');
    accepts({ field_type: 'phone' }, '+44 20 7946 0958', '+442079460958');
    rejects({ field_type: 'phone' }, '12', 'is not a phone number');
    rejects({ field_type: 'phone' }, '1'.repeat(40), 'is not a phone number');
    accepts({ field_type: 'url' }, 'https://example.com/a?b=1', 'https://example.com/a?b=1');
    rejects({ field_type: 'url' }, 'ftp://example.com', 'is not a valid URL');
    rejects({ field_type: 'url' }, `https://example.com/${'a'.repeat(2048)}`, 'is too long (maximum is 2048 characters)');
  });

  it('select: one of the options; multi_select: options from a list or comma string, stored once each in the options order', () => {
    const select: FieldDeclaration = { field_type: 'select', options: ['gold', 'silver'] };
    accepts(select, 'gold', 'gold');
    rejects(select, 'bronze', 'is not included in the list (gold, silver)');
    const multi: FieldDeclaration = { field_type: 'multi_select', options: ['a', 'b', 'c'] };
    accepts(multi, ['c', 'a'], ['a', 'c']);
    accepts(multi, 'b, a', ['a', 'b']);
    rejects(multi, ['a', 'z'], 'has values not in the list (a, b, c)');
    rejects(multi, { a: 1 }, 'is not a list of options (a, b, c)');
    rejects(multi, ['a', 'a', 'a', 'a'], 'is not a list of options (a, b, c)');
  });

  it('blank values are recognised apart from the type check', () => {
    expect([null, undefined, '', '  ', []].map(isBlankValue)).toEqual([true, true, true, true, true]);
    expect([0, false, 'x', ['a']].map(isBlankValue)).toEqual([false, false, false, false]);
  });
});

describe('checkFieldDeclaration', () => {
  it('needs options exactly for select types and a default of the declared type', () => {
    expect(checkFieldDeclaration({ field_type: 'select', options: [] }).errors).toEqual({ options: ["can't be blank for a select field"] });
    expect(checkFieldDeclaration({ field_type: 'integer', options: ['a'] }).errors).toEqual({ options: ['must be blank for a integer field (only select and multi_select have options)'] });
    expect(checkFieldDeclaration({ field_type: 'select', options: ['a', 'a'] }).errors).toEqual({ options: ['has duplicate options'] });
    expect(checkFieldDeclaration({ field_type: 'integer', default_value: 'x' }).errors).toEqual({ default_value: ['is not an integer'] });
    expect(checkFieldDeclaration({ field_type: 'phone', default_value: '4155552671' })).toEqual({ errors: {}, defaultValue: '+14155552671' });
    expect(checkFieldDeclaration({ field_type: 'string', default_value: '' })).toEqual({ errors: {}, defaultValue: null });
  });
});
