import { defineView } from '../resources/define.js';
import * as routing from '../resources/routing/admin.js';

/** How the resources of admin-exports-resource.ts are shown (their views); their write side stays there. Imports no schema. */

export const adminTableExportersView = defineView({
  name: routing.adminTableExporters.name,
  type: 'AdminTableExporter',
  // The last file's location, shown as a fresh URL.
  enrich: () => import('./export-file-urls.js').then((module) => module.exporterFileUrls),
  columns: [
    'company_id',
    'user_id',
    'sortable_order',
    'data_type',
    'export_column_names',
    'paused',
    'created_at_from',
    'created_at_to',
    'total_count',
    'is_live',
    'target_company_id',
    'export_concurrency',
    'total_files_count',
    'queued_files_count',
    'export_seconds',
    'succeeded_at',
    'total_records_count',
    'export_file_url',
    'serializer_type',
    'export_timeframe',
    'finished_generating_chunks_at',
    'records_per_file',
    'last_exported_id',
  ],
  derive: (record) => ({
    export_timeframe: record.created_at_from || record.created_at_to ? `${String(record.created_at_from ?? '')}..${String(record.created_at_to ?? '')}` : null,
  }),
});

export const dataExportRecordsView = defineView({
  name: routing.dataExportRecords.name,
  type: 'DataExportRecord',
  enrich: () => import('./export-file-urls.js').then((module) => module.exportRecordFileUrls),
  columns: ['company_id', 'admin_table_exporter_id', 'data_type', 'part_number', 'records_count', 'first_record_id', 'last_record_id', 'file_key', 'file_url'],
});
