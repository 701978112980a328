import { describe, expect, it } from 'vitest';
import { EXPORT_KEY_PREFIX, exportFileKey } from '../../shared/admin/export-keys.js';
import { exportColumns } from '../../shared/admin/table-export.js';
import { EXPORTABLE_RESOURCES } from '../../shared/admin/admin-exports-resource.js';
import { allColumns } from '../../shared/resources/define.js';
import { resourceByName } from '../../shared/resources/registry.js';
import { ValidationError } from '../../shared/http/errors.js';

/** The pure parts of admin table exports: which resources, which columns, which keys. */
describe('table exports', () => {
  const offers = resourceByName('offers')!;

  it('export the columns asked for, in their order, or every column of the list', () => {
    expect(exportColumns(offers, ['name', 'id'])).toEqual(['name', 'id']);
    expect(exportColumns(offers, null)).toEqual(allColumns(offers));
    expect(exportColumns(offers, [])).toEqual(allColumns(offers));
  });

  it('refuse a column the resource does not have, naming it', () => {
    expect(() => exportColumns(offers, ['id', 'secret'])).toThrow(ValidationError);
    try {
      exportColumns(offers, ['id', 'secret']);
    } catch (error) {
      expect((error as ValidationError).errors).toEqual({ export_column_names: ['are not columns of offers: secret'] });
    }
  });

  it('read only resources whose list answers as CSV', () => {
    expect(EXPORTABLE_RESOURCES).toContain('offers');
    expect(EXPORTABLE_RESOURCES).not.toContain('access_control_lists');
    for (const name of EXPORTABLE_RESOURCES) expect(resourceByName(name)?.csv, name).toBe(true);
  });

  it('key files per company, exporter and part, under the exports prefix only', () => {
    expect(exportFileKey(7, 12, 3)).toBe('exports/7/12/part-00003.csv');
    expect(exportFileKey(7, 12, 3).startsWith(EXPORT_KEY_PREFIX)).toBe(true);
  });
});
