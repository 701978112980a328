import { objectStorage } from '../adapters/object-storage.js';
import type { Enricher } from '../resources/define.js';

/** Presigned URLs are made when a record is shown, so a stored one never goes stale. */
const URL_SECONDS = 3600;

/** A URL for a stored file: presigned in S3; the local store's file path otherwise. */
async function fileUrl(key: unknown, stored: unknown): Promise<string | null> {
  if (typeof key !== 'string') return null;
  return (await objectStorage().presignedGetUrl(key, URL_SECONDS)) ?? (typeof stored === 'string' ? stored : null);
}

/** Stored file locations, shown as fresh URLs. */
function urlEnricher(keyField: string, urlField: string): Enricher {
  return async (_context, records) =>
    new Map(await Promise.all(records.map(async (record) => [record.id as number, { [urlField]: await fileUrl(record[keyField], record[urlField]) }] as const)));
}

/** An exporter's last file (admin_table_exporters' view). */
export const exporterFileUrls = urlEnricher('export_file_key', 'export_file_url');
/** One exported file (data_export_records' view). */
export const exportRecordFileUrls = urlEnricher('file_key', 'file_url');
