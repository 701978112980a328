import { readFile } from 'node:fs/promises';
import { parse as parseCsv } from 'csv-parse/sync';
import { beforeEach, describe, expect, it } from 'vitest';
import { MAX_FILES_PER_RUN } from '../../shared/admin/table-export.js';
import { midDayTomorrow, usePinnedClock } from '../fixtures/clock.js';
import { createTestCompany, type TestCompany } from '../fixtures/company.js';
import { expect404, expect405, expect422, recordOf } from '../fixtures/envelope.js';
import { call, useGateway } from '../fixtures/gateway.js';
import { createThrough, listThrough } from '../fixtures/records.js';

/**
 * Company administration through the local gateway (docs/resources.md, "Administration:
 * exports, tasks, clusters, migrations"): table exports write CSV files (local object storage
 * here) whose rows are the list endpoint's CSV rows, each file a data_export_records row;
 * admin tasks, application clusters (no delete) and bigint migrations are validated records.
 */
const gateway = useGateway();
usePinnedClock(midDayTomorrow);
let company: TestCompany;
let other: TestCompany;

beforeEach(async () => {
  company = await createTestCompany('adminx');
  other = await createTestCompany('adminx-other');
});

const as = (owner: TestCompany, method: string, path: string, json?: unknown) => call(gateway, { method, path, authorization: owner.authorization, json });
const EXPORTERS = '/api/v1/admin_table_exporters';

async function makeSources(count: number, owner: TestCompany = company): Promise<void> {
  for (let index = 0; index < count; index++) await createThrough(gateway, owner, '/api/v1/traffic_sources', { name: `Source, "${index}"\nline two` });
}

/** The rows of a CSV text, header apart. */
const csvOf = (text: string) => {
  const [header, ...rows] = parseCsv(text) as string[][];
  return { header: header!, rows };
};

/** The rows of every file of an exporter, in part order, read from the local object storage. */
async function exportedRows(exporterId: number, owner: TestCompany = company): Promise<{ header: string[]; rows: string[][]; files: Record<string, any>[] }> {
  const files = await listThrough(gateway, owner, `/api/v1/data_export_records?admin_table_exporter_id=${exporterId}&order=part_number&per_page=100`, 'data_export_records');
  let header: string[] = [];
  const rows: string[][] = [];
  for (const file of files) {
    const parsed = csvOf(await readFile(file.file_url, 'utf8'));
    header = parsed.header;
    rows.push(...parsed.rows);
  }
  return { header, rows, files };
}

describe('admin table exporters', () => {
  it('export the company’s records to CSV files whose rows equal the list endpoint’s CSV, one data_export_records row per file', async () => {
    await makeSources(5);
    await makeSources(2, other);
    const exporter = recordOf(await as(company, 'POST', EXPORTERS, { data_type: 'traffic_sources', records_per_file: 2 }), 'admin_table_exporter');
    expect(exporter).toMatchObject({
      data_type: 'traffic_sources',
      total_records_count: 5,
      total_count: 5,
      total_files_count: 3,
      queued_files_count: 0,
      paused: false,
      target_company_id: company.id,
      succeeded_at: expect.any(String),
      finished_generating_chunks_at: expect.any(String),
    });
    const listed = csvOf((await as(company, 'GET', '/api/v1/traffic_sources.csv?per_page=100')).text);
    const exported = await exportedRows(exporter.id);
    expect(exported.header).toEqual(listed.header);
    expect(exported.rows).toEqual(listed.rows);
    expect(exported.rows).toHaveLength(5);
    expect(exported.files.map((file) => [file.part_number, file.records_count, file.first_record_id, file.last_record_id])).toEqual([
      [1, 2, 1, 2],
      [2, 2, 3, 4],
      [3, 1, 5, 5],
    ]);
    expect(exported.files.every((file) => file.admin_table_exporter_id === exporter.id && file.file_key.startsWith(`exports/${company.id}/${exporter.id}/`))).toBe(true);
    // The exporter's URL is its last file (local storage: the file's path).
    expect(exporter.export_file_url).toBe(exported.files[2]!.file_url);
  });

  it('export only the columns asked for and the records created in the window', async () => {
    await makeSources(3);
    const exporter = recordOf(
      await as(company, 'POST', EXPORTERS, { data_type: 'traffic_sources', export_column_names: 'id,name', created_at_from: '2000-01-01T00:00:00Z', created_at_to: '2000-01-02T00:00:00Z' }),
      'admin_table_exporter',
    );
    expect(exporter).toMatchObject({ total_records_count: 0, total_files_count: 0, succeeded_at: expect.any(String), export_timeframe: expect.stringContaining('2000-01-01') });
    const all = recordOf(await as(company, 'POST', EXPORTERS, { data_type: 'traffic_sources', export_column_names: ['id', 'name'] }), 'admin_table_exporter');
    const listed = csvOf((await as(company, 'GET', '/api/v1/traffic_sources.csv?columns=id,name')).text);
    const exported = await exportedRows(all.id);
    expect(exported.header).toEqual(['id', 'name']);
    expect(exported.rows).toEqual(listed.rows);
  });

  it('stop after a run’s files and go on from there when updated, until a file comes out short', async () => {
    await makeSources(MAX_FILES_PER_RUN + 2);
    const first = recordOf(await as(company, 'POST', EXPORTERS, { data_type: 'traffic_sources', records_per_file: 1 }), 'admin_table_exporter');
    expect(first).toMatchObject({ total_files_count: MAX_FILES_PER_RUN, total_records_count: MAX_FILES_PER_RUN, succeeded_at: null, last_exported_id: MAX_FILES_PER_RUN });
    // Paused: an update does not run it.
    const paused = recordOf(await as(company, 'PUT', `${EXPORTERS}/${first.id}`, { paused: true }), 'admin_table_exporter');
    expect(paused).toMatchObject({ paused: true, total_files_count: MAX_FILES_PER_RUN, succeeded_at: null });
    const resumed = recordOf(await as(company, 'PUT', `${EXPORTERS}/${first.id}`, { paused: false }), 'admin_table_exporter');
    expect(resumed).toMatchObject({ paused: false, total_files_count: MAX_FILES_PER_RUN + 2, total_records_count: MAX_FILES_PER_RUN + 2, succeeded_at: expect.any(String) });
    const listed = csvOf((await as(company, 'GET', '/api/v1/traffic_sources.csv?per_page=100')).text);
    expect((await exportedRows(first.id)).rows).toEqual(listed.rows);
  });

  it('refuse unknown resources, unknown columns, bad windows and sizes, and fields that cannot change', async () => {
    expect422(await as(company, 'POST', EXPORTERS, {}), { data_type: ['is required'] });
    expect422(await as(company, 'POST', EXPORTERS, { data_type: 'nope' }), { data_type: [expect.stringMatching(/^is not included in the list/) as unknown as string] });
    expect422(await as(company, 'POST', EXPORTERS, { data_type: 'traffic_sources', export_column_names: ['id', 'password'] }), {
      export_column_names: ['are not columns of traffic_sources: password'],
    });
    expect422(await as(company, 'POST', EXPORTERS, { data_type: 'traffic_sources', records_per_file: 0 }), { records_per_file: ['must be greater than or equal to 1'] });
    expect422(await as(company, 'POST', EXPORTERS, { data_type: 'traffic_sources', created_at_from: '2026-02-01', created_at_to: '2026-01-01' }), { created_at_to: ['must be after created_at_from'] });
    expect422(await as(company, 'POST', EXPORTERS, { data_type: 'traffic_sources', created_at_from: 'soon' }), { created_at_from: ['is not a valid time'] });
    expect((await listThrough(gateway, company, EXPORTERS, 'admin_table_exporters')).length).toBe(0);
    const exporter = recordOf(await as(company, 'POST', EXPORTERS, { data_type: 'traffic_sources' }), 'admin_table_exporter');
    // data_type is not writable on update: the export's files would not match it.
    const updated = recordOf(await as(company, 'PUT', `${EXPORTERS}/${exporter.id}`, { data_type: 'offers', sortable_order: 3 }), 'admin_table_exporter');
    expect(updated).toMatchObject({ data_type: 'traffic_sources', sortable_order: 3 });
  });

  it('are the company’s own, and a delete removes the exporter’s files and their records', async () => {
    await makeSources(2);
    const exporter = recordOf(await as(company, 'POST', EXPORTERS, { data_type: 'traffic_sources' }), 'admin_table_exporter');
    const { files } = await exportedRows(exporter.id);
    expect(files).toHaveLength(1);
    expect404(await as(other, 'GET', `${EXPORTERS}/${exporter.id}`));
    expect404(await as(other, 'PUT', `${EXPORTERS}/${exporter.id}`, { paused: true }));
    expect404(await as(other, 'DELETE', `${EXPORTERS}/${exporter.id}`));
    expect404(await as(other, 'GET', `/api/v1/data_export_records/${files[0]!.id}`));
    expect(await listThrough(gateway, other, '/api/v1/data_export_records', 'data_export_records')).toEqual([]);
    recordOf(await as(company, 'DELETE', `${EXPORTERS}/${exporter.id}`), 'admin_table_exporter');
    expect(await listThrough(gateway, company, '/api/v1/data_export_records', 'data_export_records')).toEqual([]);
    await expect(readFile(files[0]!.file_url)).rejects.toThrow(/ENOENT/);
  });

  it('data_export_records are read only', async () => {
    expect405(await as(company, 'POST', '/api/v1/data_export_records', {}), 'GET');
    expect405(await as(company, 'DELETE', '/api/v1/data_export_records/1'), 'GET');
  });
});

describe('application clusters', () => {
  const PATH = '/api/v1/application_clusters';

  it('show what a route group runs, store the name and colours, and have no delete', async () => {
    const cluster = recordOf(await as(company, 'POST', PATH, { name: 'Admin', server_role: 'admin', server_role_background_color: '#112233' }), 'application_cluster');
    expect(cluster).toMatchObject({
      name: 'Admin',
      server_role: 'admin',
      server_category: 'lambda',
      auto_scale_enabled: true,
      ports: ['exports'],
      sidekiq_queues: [],
      td_ec2_instances_count: 0,
      server_role_background_color: '#112233',
    });
    const voice = recordOf(await as(company, 'POST', PATH, { name: 'Voice', server_role: 'voice' }), 'application_cluster');
    expect(voice).toMatchObject({ sidekiq_queues: ['events'], events_sidekiq_queue: 'events' });
    const again = await as(company, 'POST', PATH, { name: 'Again', server_role: 'admin' });
    expect(again.status, again.text).toBe(409);
    expect(again.body.errors).toEqual({ server_role: ['has already been taken'] });
    expect422(await as(company, 'POST', PATH, { name: 'X', server_role: 'sidekiq' }), { server_role: [expect.stringMatching(/^is not included in the list/) as unknown as string] });
    expect422(await as(company, 'PUT', `${PATH}/${cluster.id}`, { server_role_text_color: 'red' }), { server_role_text_color: ['is not a colour (#rrggbb)'] });
    const renamed = recordOf(await as(company, 'PUT', `${PATH}/${cluster.id}`, { name: 'Administration', server_role: 'voice' }), 'application_cluster');
    expect(renamed).toMatchObject({ name: 'Administration', server_role: 'admin' });
    expect405(await as(company, 'DELETE', `${PATH}/${cluster.id}`), 'GET, PUT');
    expect404(await as(other, 'GET', `${PATH}/${cluster.id}`));
    // Another company may name the same function.
    recordOf(await as(other, 'POST', PATH, { name: 'Admin', server_role: 'admin' }), 'application_cluster');
  });
});

describe('admin tasks and bigint migrations', () => {
  it('admin tasks: validated records whose progress fields only the service writes', async () => {
    const PATH = '/api/v1/admin_tasks';
    const task = recordOf(
      await as(company, 'POST', PATH, { rails_model_name: 'access_control_lists', method_name: 'touch', business_hours_open: '09:00', business_hours_close: '17:00', time_zone: 'America/New_York', status: 'done', counter: 9 }),
      'admin_task',
    );
    expect(task).toMatchObject({ rails_model_name: 'access_control_lists', status: 'pending', counter: 0, last_id: null, target_company_ids: [], active: false });
    expect422(await as(company, 'POST', PATH, { rails_model_name: 'users' }), { rails_model_name: [expect.stringMatching(/^is not included in the list/) as unknown as string] });
    expect422(await as(company, 'POST', PATH, { rails_model_name: 'offers', business_hours_open: '25:00' }), { business_hours_open: ['is not a time of day (HH:MM)'] });
    expect422(await as(company, 'POST', PATH, { rails_model_name: 'offers', business_hours_open: '09:00' }), { business_hours_close: ['must be given with business_hours_open'] });
    expect422(await as(company, 'POST', PATH, { rails_model_name: 'offers', target_company_ids: [other.id] }), { target_company_ids: ['may name only your own company'] });
    recordOf(await as(company, 'POST', PATH, { rails_model_name: 'offers', target_company_ids: [company.id] }), 'admin_task');
    expect(recordOf(await as(company, 'PUT', `${PATH}/${task.id}`, { active: true }), 'admin_task')).toMatchObject({ active: true, status: 'pending' });
    expect404(await as(other, 'GET', `${PATH}/${task.id}`));
    recordOf(await as(company, 'DELETE', `${PATH}/${task.id}`), 'admin_task');
  });

  it('bigint migrations: validated records in phase pending', async () => {
    const PATH = '/api/v1/bigint_migrations';
    const migration = recordOf(await as(company, 'POST', PATH, { migrate_table_name: 'offers', migrate_column_name: 'id', batch_size: 500, total_copied: 7 }), 'bigint_migration');
    expect(migration).toMatchObject({ migrate_table_name: 'offers', migrate_column_name: 'id', batch_size: 500, phase: 'pending', total_copied: 0, started_at: null, paused: false });
    expect422(await as(company, 'POST', PATH, { migrate_table_name: 'offers', migrate_column_name: 'Drop Table' }), { migrate_column_name: ['is not a column name'] });
    expect422(await as(company, 'PUT', `${PATH}/${migration.id}`, { batch_size: 20_000 }), { batch_size: ['must be less than or equal to 10000'] });
    expect(recordOf(await as(company, 'PUT', `${PATH}/${migration.id}`, { paused: true, migrate_table_name: 'buyers' }), 'bigint_migration')).toMatchObject({ paused: true, migrate_table_name: 'offers' });
    expect404(await as(other, 'DELETE', `${PATH}/${migration.id}`));
    recordOf(await as(company, 'DELETE', `${PATH}/${migration.id}`), 'bigint_migration');
  });
});
