import * as v from 'valibot';
import { MAX_IMPORT_CSV_CHARS } from '../contact-imports/csv-rows.js';
import { idParam, oneOf } from '../http/param-schemas.js';
import { defineResource } from './define.js';
import { optionalId, optionalText } from './field-schemas.js';
import * as routing from './routing.js';

/**
 * Contact imports (docs/resources.md, "Data appends and contact imports"): a CSV of contacts or
 * leads given in the body (`csv`, at most 1,000,000 characters and 10,000 rows), checked whole
 * when created (parse, header, bounds), then imported row by row: contacts as
 * `PUT /api/v1/contacts/:id` writes them, leads as `POST /api/v1/leads` submits them with the
 * lead token of the import's offer or schedule. Progress and per-row errors are on the record;
 * shared/contact-imports/import-run.ts does the work (within the creating request up to a time
 * budget, then `POST /api/v1/contact_imports/{id}/resume`). No delete: an import is history.
 */
export const IMPORT_TYPES = ['contacts', 'leads'] as const;
export const IMPORT_STATUSES = ['pending', 'in_progress', 'completed'] as const;

const csvParam = v.pipe(
  v.string('is not a string'),
  v.maxLength(MAX_IMPORT_CSV_CHARS, `is too long (maximum is ${MAX_IMPORT_CSV_CHARS} characters)`),
  v.check((text) => text.trim() !== '', "can't be blank"),
);

const readOnly = v.optional(v.never('cannot be changed: the import sets it'));

export const contactImports = defineResource({
  ...routing.contactImports,
  root: 'contact_import',
  plural: 'contact_imports',
  type: 'ContactImport',
  createSchema: v.object({
    name: optionalText,
    import_type: v.optional(oneOf(IMPORT_TYPES)),
    offer_id: optionalId,
    schedule_id: optionalId,
    csv: csvParam,
  }),
  updateSchema: v.object({
    name: optionalText,
    ...Object.fromEntries(
      ['import_type', 'offer_id', 'schedule_id', 'csv', 'status', 'total_rows', 'processed_rows', 'imported_count', 'error_count', 'row_errors', 'columns'].map((field) => [field, readOnly]),
    ),
  }),
  defaults: {
    name: null,
    import_type: 'contacts',
    offer_id: null,
    schedule_id: null,
    status: 'pending',
    columns: [],
    total_rows: 0,
    processed_rows: 0,
    imported_count: 0,
    error_count: 0,
    row_errors: [],
    started_at: null,
    finished_at: null,
  },
  columns: [
    'company_id',
    'name',
    'import_type',
    'offer_id',
    'schedule_id',
    'status',
    'columns',
    'total_rows',
    'processed_rows',
    'imported_count',
    'error_count',
    'row_errors',
    'started_at',
    'finished_at',
  ],
  filters: { status: { schema: oneOf(IMPORT_STATUSES) }, import_type: { schema: oneOf(IMPORT_TYPES) }, offer_id: { schema: idParam }, schedule_id: { schema: idParam } },
  order: { values: ['id', 'name', 'status', 'created_at', 'updated_at'], default: 'id' },
  fulltextFields: ['name'],
  foreignKeys: { offer_id: { resource: 'offers' }, schedule_id: { resource: 'schedules' } },
  instructions: ['csv'],
  check: (record): Record<string, string[]> => {
    if (record.import_type === 'leads') {
      if (!record.offer_id && !record.schedule_id) return { offer_id: ['one of offer_id and schedule_id is required to import leads'] };
      if (record.offer_id && record.schedule_id) return { schedule_id: ['must be blank when offer_id is given (the leads take one lead token)'] };
      return {};
    }
    const errors: Record<string, string[]> = {};
    if (record.offer_id) errors.offer_id = ['must be blank when importing contacts'];
    if (record.schedule_id) errors.schedule_id = ['must be blank when importing contacts'];
    return errors;
  },
  behaviour: () => import('../contact-imports/import-run.js'),
});
