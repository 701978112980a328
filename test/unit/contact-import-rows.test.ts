import { describe, expect, it } from 'vitest';
import { CHUNK_BYTES, chunkRows, MAX_COLUMN_NAME_CHARS, MAX_IMPORT_COLUMNS, readImportCsv, rowValues } from '../../shared/contact-imports/csv-rows.js';
import { columnsProblem, contactRow, leadOwnerGone, leadRowProblem, NUMBER_COLUMNS } from '../../shared/contact-imports/import-rows.js';
import { ValidationError } from '../../shared/http/errors.js';

// The row rules of a contact import (docs/contacts.md) at their boundaries; the row limit's own
// boundary (exactly MAX_IMPORT_ROWS accepted, one more refused) is in contact-import-csv.test.ts.

function errorsOf(values: Record<string, string>): Record<string, string[]> {
  try {
    contactRow(values);
  } catch (error) {
    expect(error).toBeInstanceOf(ValidationError);
    return (error as ValidationError).errors;
  }
  throw new Error('the row was accepted');
}

describe('the CSV of an import', () => {
  it('takes exactly the maximum of columns and of column name length, and refuses one more', () => {
    const header = (count: number) => Array.from({ length: count }, (_, index) => `c${index}`).join(',');
    expect(readImportCsv(`${header(MAX_IMPORT_COLUMNS)}\n1`)).toMatchObject({ ok: true });
    expect(readImportCsv(`${header(MAX_IMPORT_COLUMNS + 1)}\n1`)).toEqual({ ok: false, message: 'has too many columns (maximum is 100)' });
    expect(readImportCsv(`${'n'.repeat(MAX_COLUMN_NAME_CHARS)}\n1`)).toMatchObject({ ok: true });
    expect(readImportCsv(`${'n'.repeat(MAX_COLUMN_NAME_CHARS + 1)}\n1`)).toEqual({ ok: false, message: 'has a column name longer than 100 characters' });
    expect(readImportCsv(`phone,${'n'.repeat(MAX_COLUMN_NAME_CHARS + 1)}\n1`)).toEqual({ ok: false, message: 'has a column name longer than 100 characters' });
  });

  it('needs a named header, and allows several unnamed columns', () => {
    expect(readImportCsv('')).toEqual({ ok: false, message: 'has no header row' });
    expect(readImportCsv(',,\n1,2,3')).toEqual({ ok: false, message: 'has no header row' });
    expect(readImportCsv('phone,,\n1,2,3')).toEqual({ ok: true, columns: ['phone', '', ''], rows: [['1', '2', '3']] });
    expect(readImportCsv('"a\n')).toMatchObject({ ok: false, message: expect.stringMatching(/^is not valid CSV \(.+\)$/) });
  });

  it('keeps a row that fits one chunk and refuses one byte larger', () => {
    // JSON of ["x..."] is the cell plus 4 bytes.
    const fits = 'x'.repeat(CHUNK_BYTES - 4);
    expect(readImportCsv(`notes\n${fits}`)).toMatchObject({ ok: true });
    expect(readImportCsv(`notes\n${fits}x`)).toEqual({ ok: false, message: 'has a row larger than 300000 bytes' });
    expect(readImportCsv(`notes\nsmall\n${fits}x`)).toEqual({ ok: false, message: 'has a row larger than 300000 bytes' });
  });

  it('names cells by column, and cuts chunks at the byte limit (a row and its separator)', () => {
    // No key at all for a missing or blank cell (not a key holding undefined or '').
    expect(rowValues(['a', 'b', 'c'], ['1', ''])).toStrictEqual({ a: '1' });
    // ["ab"] is 6 bytes, plus one: 7 a row.
    const rows = [['ab'], ['cd'], ['ef']];
    expect(chunkRows(rows, 14)).toEqual([[['ab'], ['cd']], [['ef']]]);
    expect(chunkRows(rows, 13)).toEqual([[['ab']], [['cd']], [['ef']]]);
    expect(chunkRows([['long row']], 3)).toEqual([[['long row']]]);
    expect(chunkRows([])).toEqual([]);
  });
});

describe('a contact row', () => {
  it('takes the number from the first number column present, in the documented order', () => {
    expect(NUMBER_COLUMNS).toEqual(['caller_id', 'caller_number', 'phone_number', 'phone', 'number']);
    expect(contactRow({ number: '7205550002', caller_id: '7205550001' }).number).toBe('+17205550001');
    expect(errorsOf({ number: '7205550002', phone: 'bad' })).toEqual({ phone: ['is not a phone number'] });
  });

  it('keeps the number columns out of the data, the contact fields as fields, the rest as data', () => {
    expect(contactRow({ phone: '7205550001', number: 'x', last_name: 'L', notes: 'n', email: 'a@example.com' })).toEqual({
      number: '+17205550001',
      fields: { last_name: 'L', notes: 'n', email: 'a@example.com' },
    });
  });

  it('needs a number column', () => {
    expect(errorsOf({ first_name: 'Ada' })).toEqual({ caller_id: ["can't be blank"] });
  });

  it('reads at most 40 characters of a number', () => {
    // The 41st character (a stray digit) is not read.
    expect(contactRow({ phone: `7205550001${' '.repeat(30)}1` }).number).toBe('+17205550001');
  });
});

describe('the columns and rows of an import by type', () => {
  it('needs a number column for contacts, none for leads', () => {
    expect(columnsProblem('contacts', ['email', 'phone'])).toBeUndefined();
    expect(columnsProblem('contacts', ['email'])).toBe('has no caller number column (one of caller_id, caller_number, phone_number, phone, number)');
    expect(columnsProblem('leads', ['email'])).toBeUndefined();
  });

  it('refuses a lead row without a number and without an e-mail', () => {
    expect(leadRowProblem({})).toEqual({ caller_id: ["can't be blank when email is blank"] });
    expect(leadRowProblem({ caller_id: '+17205550001' })).toBeUndefined();
    expect(leadRowProblem({ email: 'a@example.com' })).toBeUndefined();
  });

  it("names the import's owner that is gone", () => {
    expect(leadOwnerGone({ offer_id: 3 })).toEqual({ offer_id: ['no longer exists'] });
    expect(leadOwnerGone({ offer_id: null, schedule_id: 4 })).toEqual({ schedule_id: ['no longer exists'] });
  });
});
