import * as v from 'valibot';
import { booleanParam, idParam, integerParam, oneOf } from '../http/param-schemas.js';
import { defineResource } from '../resources/define.js';
import { listOf, timeParam } from '../resources/field-schemas.js';
import * as routing from '../resources/routing.js';
import { EXPORTABLE_RESOURCES } from './exportable-resources.js';
import { adminTableExportersView, dataExportRecordsView } from './admin-exports-view.js';

export { EXPORTABLE_RESOURCES };

/**
 * Company administration: exports of a resource's records to CSV files (docs/resources.md,
 * "Administration: exports, tasks, clusters, migrations").
 * - admin_table_exporters: one export of one resource (`data_type`); writing it runs the export
 *   (shared/admin/table-export.ts): the records' CSV rows, exactly as the list endpoint's CSV,
 *   in files of `records_per_file` rows under the object storage's `exports/` prefix.
 * - data_export_records: one row per file an exporter produced (read only).
 */

/** Rows per file; a run writes at most MAX_FILES_PER_RUN files (shared/admin/table-export.ts). */
export const MAX_RECORDS_PER_FILE = 5_000;
export const DEFAULT_RECORDS_PER_FILE = 1_000;

const columnNamesParam = v.optional(
  v.nullable(v.pipe(listOf(v.pipe(v.string('is not a list of column names'), v.maxLength(100, 'is not a list of column names')), 'is not a list of column names'), v.maxLength(200, 'is too long (maximum is 200 columns)'))),
);
const recordsPerFileParam = v.optional(
  v.pipe(integerParam, v.minValue(1, 'must be greater than or equal to 1'), v.maxValue(MAX_RECORDS_PER_FILE, `must be less than or equal to ${MAX_RECORDS_PER_FILE}`)),
);
const sortableOrderParam = v.optional(v.nullable(v.pipe(integerParam, v.minValue(0, 'must be greater than or equal to 0'), v.maxValue(1_000_000, 'must be less than or equal to 1000000'))));

export const adminTableExporters = defineResource({
  ...routing.adminTableExporters,
  ...adminTableExportersView,
  root: 'admin_table_exporter',
  plural: 'admin_table_exporters',
  createSchema: v.object({
    data_type: oneOf(EXPORTABLE_RESOURCES),
    export_column_names: columnNamesParam,
    created_at_from: v.optional(v.nullable(timeParam)),
    created_at_to: v.optional(v.nullable(timeParam)),
    records_per_file: recordsPerFileParam,
    paused: v.optional(booleanParam),
    sortable_order: sortableOrderParam,
  }),
  // What the export reads is fixed once it exists (files already written would not match); pausing and resuming is not.
  updateSchema: v.object({ paused: v.optional(booleanParam), sortable_order: sortableOrderParam }),
  defaults: {
    user_id: null,
    sortable_order: null,
    data_type: null,
    export_column_names: null,
    paused: false,
    created_at_from: null,
    created_at_to: null,
    records_per_file: DEFAULT_RECORDS_PER_FILE,
    total_count: 0,
    is_live: false,
    target_company_id: null,
    export_concurrency: 1,
    total_files_count: 0,
    queued_files_count: 0,
    export_seconds: 0,
    succeeded_at: null,
    total_records_count: 0,
    export_file_key: null,
    export_file_url: null,
    serializer_type: 'default',
    export_timeframe: null,
    finished_generating_chunks_at: null,
    last_exported_id: null,
  },
  filters: { data_type: { schema: oneOf(EXPORTABLE_RESOURCES) }, paused: { schema: booleanParam } },
  order: { values: ['id', 'sortable_order', 'data_type', 'succeeded_at', 'created_at', 'updated_at'], default: 'id' },
  fulltextFields: ['data_type'],
  generate: (context) => ({ user_id: context.userId ?? null, target_company_id: context.companyId }),
  check: (record): Record<string, string[]> =>
    typeof record.created_at_from === 'string' && typeof record.created_at_to === 'string' && record.created_at_from > record.created_at_to
      ? { created_at_to: ['must be after created_at_from'] }
      : {},
  behaviour: async () => (await import('./table-export.js')).exporterBehaviour,
});

export const dataExportRecords = defineResource({
  ...routing.dataExportRecords,
  ...dataExportRecordsView,
  root: 'data_export_record',
  plural: 'data_export_records',
  createSchema: v.object({}),
  updateSchema: v.object({}),
  defaults: {},
  filters: { admin_table_exporter_id: { schema: idParam }, data_type: { schema: oneOf(EXPORTABLE_RESOURCES) } },
  order: { values: ['id', 'part_number', 'created_at'], default: 'id' },
  fulltextFields: ['data_type', 'file_key'],
});
