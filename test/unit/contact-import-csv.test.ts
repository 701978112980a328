import { describe, expect, it } from 'vitest';
import { chunkRows, MAX_IMPORT_ROWS, readImportCsv, rowValues } from '../../shared/contact-imports/csv-rows.js';
import { contactRow } from '../../shared/contact-imports/import-rows.js';
import { dataAppendCharge } from '../../shared/data-appends/prices.js';
import { ValidationError } from '../../shared/http/errors.js';

describe('reading a contact import CSV', () => {
  it('gives lower-cased columns and rows, quoted fields and a BOM included', () => {
    expect(readImportCsv('\uFEFFPhone,Notes\n"+17205550001","a, b"\n\n720 555 0002,c\n')).toEqual({
      ok: true,
      columns: ['phone', 'notes'],
      rows: [
        ['+17205550001', 'a, b'],
        ['720 555 0002', 'c'],
      ],
    });
  });

  it('refuses what cannot be imported whole', () => {
    expect(readImportCsv('phone\n')).toEqual({ ok: false, message: 'has no rows after the header' });
    expect(readImportCsv('phone,Phone\n1,2')).toEqual({ ok: false, message: 'names a column twice' });
    expect(readImportCsv(['phone', ...Array.from({ length: MAX_IMPORT_ROWS + 1 }, () => '1')].join('\n'))).toEqual({ ok: false, message: 'has too many rows (maximum is 10000)' });
    expect(readImportCsv('phone\n"unclosed')).toMatchObject({ ok: false, message: expect.stringMatching(/^is not valid CSV/) });
  });

  it('takes exactly the maximum number of rows', () => {
    const reading = readImportCsv(['phone', ...Array.from({ length: MAX_IMPORT_ROWS }, (_, index) => String(index))].join('\n'));
    expect(reading.ok).toBe(true);
    expect(reading.ok && reading.rows.length).toBe(MAX_IMPORT_ROWS);
    expect(MAX_IMPORT_ROWS).toBe(10_000);
  });

  it('names cells by column, leaving blanks out, and cuts rows into chunks by size', () => {
    expect(rowValues(['phone', '', 'notes', 'x'], ['1', 'unnamed', '', 'y'])).toEqual({ phone: '1', x: 'y' });
    const rows = Array.from({ length: 10 }, (_, index) => [`row ${index}`]);
    const chunks = chunkRows(rows, 40);
    expect(chunks.flat()).toEqual(rows);
    expect(chunks.every((chunk) => Buffer.byteLength(chunk.map((row) => JSON.stringify(row)).join('\n')) <= 40)).toBe(true);
    expect(chunks.length).toBeGreaterThan(1);
  });
});

describe('a contact row', () => {
  it('takes the first number column, the contact fields, and the rest as data', () => {
    expect(contactRow({ phone: '(720) 555-0001', first_name: 'Ada', plan: 'gold' })).toEqual({ number: '+17205550001', fields: { first_name: 'Ada', data: { plan: 'gold' } } });
  });

  it('reports every problem of the row at once', () => {
    try {
      contactRow({ phone: 'nope', email: 'bad' });
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(ValidationError);
      expect((error as ValidationError).errors).toEqual({ phone: ['is not a phone number'], email: ['is not a valid e-mail address'] });
    }
  });
});

describe('a data append charge', () => {
  it('adds the price of each type asked for', () => {
    expect(dataAppendCharge(['caller_name', 'carrier_type', 'address', 'demographics'])).toBe(0.085);
    expect(dataAppendCharge([])).toBe(0);
  });
});
