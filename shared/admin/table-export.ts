import { randomUUID } from 'node:crypto';
import { createRecord, deleteRecord, nextId, queryAllRecords, queryRecordPage, updateRecord, type StoredRecord } from '../db/records.js';
import { objectStorage } from '../adapters/object-storage.js';
import { toCsv } from '../http/csv.js';
import { ValidationError } from '../http/errors.js';
import { EXPORTABLE_RESOURCES } from './exportable-resources.js';
import { allColumns, type HookContext, type ResourceBehaviour, type ResourceView } from '../resources/define.js';
import { serializeMany } from '../resources/engine.js';
import { recordPredicate, withoutHidden } from '../resources/list-conditions.js';
import { exportFileKey } from './export-keys.js';

/**
 * Runs an admin table export (shared/admin/admin-exports-resource.ts): the company's records of the
 * exporter's `data_type`, in id order, serialized by the engine as its list endpoint serializes
 * them and written with the same CSV code, so a file's rows are the list endpoint's CSV rows.
 *
 * Bounded and resumable like a number order fill: a run writes at most MAX_FILES_PER_RUN files of
 * `records_per_file` rows (and MAX_RECORDS_PER_RUN records), saving its position
 * (`last_exported_id`) after every file, so a write of the exporter (any update, e.g.
 * `paused: false`) goes on from there; the export is done when a file comes out short
 * (`succeeded_at`).
 */
export const MAX_FILES_PER_RUN = 10;
/** And at most this many records per run, so a run with large files stays well within a request's time. */
export const MAX_RECORDS_PER_RUN = 10_000;

const EXPORTERS = 'admin_table_exporters';
const FILES = 'data_export_records';

/**
 * The exported resource's view (shared/resources/view-registry.ts): what serializing its records
 * needs, without its schemas or write hooks, so the admin function bundles only views. Imported
 * on first use: evaluated when an export runs, not at every cold start (docs/benchmarks.md,
 * "Lambda bundles"). Only resources whose list answers as CSV can be exported.
 */
async function exportedView(name: unknown): Promise<ResourceView> {
  const { viewByName } = await import('../resources/view-registry.js');
  const view = typeof name === 'string' && EXPORTABLE_RESOURCES.includes(name) ? viewByName(name) : undefined;
  if (!view) throw new ValidationError({ data_type: ['is not a resource that can be exported'] });
  return view;
}

/** The columns a file has: those asked for (each a column of the resource), or all of them. */
export function exportColumns(resource: ResourceView, asked: unknown): string[] {
  const known = allColumns(resource);
  if (!Array.isArray(asked) || asked.length === 0) return known;
  const unknown = asked.filter((name) => !known.includes(String(name)));
  if (unknown.length) throw new ValidationError({ export_column_names: [`are not columns of ${resource.name}: ${unknown.join(', ')}`] });
  return asked.map(String);
}

/** Writes files until the export is done, paused, or this run's files are written; returns the exporter's changes. */
export async function runExport(context: HookContext, exporter: Record<string, unknown>): Promise<Record<string, unknown>> {
  if (exporter.paused || exporter.succeeded_at) return {};
  const companyId = context.companyId;
  const id = exporter.id as number;
  const resource = await exportedView(exporter.data_type);
  const columns = exportColumns(resource, exporter.export_column_names);
  const perFile = Number(exporter.records_per_file) || 1;
  const inWindow = recordPredicate({
    equals: {},
    createdFrom: typeof exporter.created_at_from === 'string' ? new Date(exporter.created_at_from) : undefined,
    createdTo: typeof exporter.created_at_to === 'string' ? new Date(exporter.created_at_to) : undefined,
    fulltextFields: [],
  });
  // Records being removed in the background (a deleted contact field's values) are not exported.
  const accept = withoutHidden(inWindow, await resource.hiddenRecords?.(companyId));
  const started = Date.now();
  const progress: Record<string, unknown> = {};
  let lastId = typeof exporter.last_exported_id === 'number' ? exporter.last_exported_id : undefined;
  let files = Number(exporter.total_files_count) || 0;
  let exported = Number(exporter.total_records_count) || 0;
  let done = false;
  const filesThisRun = Math.min(MAX_FILES_PER_RUN, Math.max(1, Math.floor(MAX_RECORDS_PER_RUN / perFile)));
  for (let run = 0; run < filesThisRun && !done; run++) {
    const { records } = await queryRecordPage({ companyId, resource: resource.name, direction: 'asc', limit: perFile, afterId: lastId, accept });
    done = records.length < perFile;
    if (records.length) {
      const rows = await serializeMany(resource, context, records, { timeZone: 'UTC', grid: false });
      const part = files + 1;
      const key = exportFileKey(companyId, id, part);
      const { location } = await objectStorage().put({ key, body: toCsv(columns, rows), contentType: 'text/csv; charset=utf-8' });
      await recordFile(context, exporter, { part, key, location, records });
      files = part;
      exported += records.length;
      lastId = records[records.length - 1]!.id;
      Object.assign(progress, { total_files_count: files, total_records_count: exported, last_exported_id: lastId, export_file_key: key, export_file_url: location });
    }
    if (done) {
      const at = context.now.toISOString();
      Object.assign(progress, { total_count: exported, succeeded_at: at, finished_generating_chunks_at: at });
    }
    // Saved after every file: a run cut short goes on from the last file written.
    progress.export_seconds = Number(exporter.export_seconds ?? 0) + Math.round((Date.now() - started) / 1000);
    await updateRecord(companyId, EXPORTERS, id, { ...progress, updated_at: context.now.toISOString() });
  }
  return progress;
}

async function recordFile(
  context: HookContext,
  exporter: Record<string, unknown>,
  file: { part: number; key: string; location: string; records: readonly StoredRecord[] },
): Promise<void> {
  const now = context.now.toISOString();
  const record: StoredRecord = {
    company_id: context.companyId,
    id: await nextId(context.companyId, FILES),
    uuid: randomUUID(),
    created_at: now,
    updated_at: now,
    admin_table_exporter_id: exporter.id,
    data_type: exporter.data_type,
    part_number: file.part,
    records_count: file.records.length,
    first_record_id: file.records[0]!.id,
    last_record_id: file.records[file.records.length - 1]!.id,
    file_key: file.key,
    file_url: file.location,
  };
  await createRecord(context.companyId, FILES, record);
}

export const exporterBehaviour: ResourceBehaviour = {
  prepareCreate: async (_context, fields) => {
    exportColumns(await exportedView(fields.data_type), fields.export_column_names);
    return fields;
  },
  // A create runs the export in its request; an update that leaves the exporter unpaused goes on from
  // where the last run stopped, and its answer shows the progress (written with the update).
  afterWrite: async (context, { before, after }) => (before ? undefined : runExport(context, after)),
  prepareUpdate: async (context, before, fields) => runExport(context, { ...before, ...fields }),
  // An exporter's files and their records go with it.
  afterDelete: async (context, exporter) => {
    const files = (await queryAllRecords(context.companyId, FILES)).filter((file) => file.admin_table_exporter_id === exporter.id);
    for (const file of files) {
      if (typeof file.file_key === 'string') await objectStorage().delete(file.file_key);
      await deleteRecord(context.companyId, FILES, file.id);
    }
  },
};
