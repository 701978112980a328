import * as v from 'valibot';
import { MAX_IMPORT_CSV_CHARS, MAX_UPLOAD_BYTES } from './import-keys.js';
import { idParam, integerParam, oneOf } from '../http/param-schemas.js';
import { defineResource } from '../resources/define.js';
import { optionalId, optionalText } from '../resources/field-schemas.js';
import * as routing from '../resources/routing/contacts.js';
import { contactImportsView } from './contact-imports-view.js';

/**
 * Contact imports (docs/resources.md, "Data appends and contact imports"): a CSV of contacts or
 * leads given in the body (`csv`, at most 1,000,000 characters and 10,000 rows; stored as an
 * upload's file is and `queued`), or uploaded (`source: upload`, `file_size` bytes up to 10 MB,
 * to the URL the create answers; shared/contact-imports/upload.ts). Either way the background
 * (shared/contact-imports/import-work.ts) checks the file whole (parse, header, bounds: else
 * `failed` with `file_errors`), then imports it row by row (import-run.ts): contacts as
 * `PUT /api/v1/contacts/:id` writes them, leads as `POST /api/v1/leads` submits them with the lead
 * token of the import's offer or schedule. Progress and per-row errors are on the record; the
 * requests' hooks are import-requests.ts. No delete: an import is history.
 */
export const IMPORT_TYPES = ['contacts', 'leads'] as const;
export const IMPORT_SOURCES = ['body', 'upload'] as const;
export const IMPORT_STATUSES = ['awaiting_upload', 'queued', 'pending', 'in_progress', 'completed', 'failed'] as const;

const csvParam = v.pipe(
  v.string('is not a string'),
  v.maxLength(MAX_IMPORT_CSV_CHARS, `is too long (maximum is ${MAX_IMPORT_CSV_CHARS} characters)`),
  v.check((text) => text.trim() !== '', "can't be blank"),
);

const readOnly = v.optional(v.never('cannot be changed: the import sets it'));

const fileSizeParam = v.pipe(
  integerParam,
  v.minValue(1, 'must be greater than or equal to 1'),
  v.maxValue(MAX_UPLOAD_BYTES, `is larger than the largest upload (${MAX_UPLOAD_BYTES} bytes): split the file`),
);

const createFields = v.object({
  name: optionalText,
  import_type: v.optional(oneOf(IMPORT_TYPES)),
  source: v.optional(oneOf(IMPORT_SOURCES)),
  file_size: v.optional(fileSizeParam),
  offer_id: optionalId,
  schedule_id: optionalId,
  csv: v.optional(csvParam),
});

export const contactImports = defineResource({
  ...routing.contactImports,
  ...contactImportsView,
  root: 'contact_import',
  plural: 'contact_imports',
  // `csv` goes with a body import, `file_size` with an upload: each required there and refused with the other.
  createSchema: v.pipe(
    createFields,
    v.forward(v.partialCheck([['source'], ['csv']], (input) => input.source === 'upload' || input.csv !== undefined, 'is required'), ['csv']),
    v.forward(v.partialCheck([['source'], ['csv']], (input) => input.source !== 'upload' || input.csv === undefined, 'must be blank for an upload (PUT the file to upload_url)'), ['csv']),
    v.forward(v.partialCheck([['source'], ['file_size']], (input) => input.source !== 'upload' || input.file_size !== undefined, "is required for an upload (the file's size in bytes)"), ['file_size']),
    v.forward(v.partialCheck([['source'], ['file_size']], (input) => input.source === 'upload' || input.file_size === undefined, 'must be blank when the CSV is in the body'), ['file_size']),
  ),
  updateSchema: v.object({
    name: optionalText,
    ...Object.fromEntries(
      [
        'import_type',
        'source',
        'file_size',
        'offer_id',
        'schedule_id',
        'csv',
        'status',
        'total_rows',
        'processed_rows',
        'imported_count',
        'error_count',
        'row_errors',
        'columns',
        'file_errors',
        'upload_expires_at',
      ].map((field) => [field, readOnly]),
    ),
  }),
  defaults: {
    name: null,
    import_type: 'contacts',
    source: 'body',
    file_size: null,
    upload_expires_at: null,
    file_errors: null,
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
  filters: { status: { schema: oneOf(IMPORT_STATUSES) }, import_type: { schema: oneOf(IMPORT_TYPES) }, source: { schema: oneOf(IMPORT_SOURCES) }, offer_id: { schema: idParam }, schedule_id: { schema: idParam } },
  order: { values: ['id', 'name', 'status', 'created_at', 'updated_at'], default: 'id' },
  fulltextFields: ['name'],
  instructions: ['csv'],
  // An upload's URL is a credential for its file: shown by the create only, never stored.
  revealedOnWrite: ['upload_url'],
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
  behaviour: () => import('./import-requests.js'),
});
