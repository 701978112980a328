import { updateRecord, type StoredRecord } from '../db/records.js';
import { logger } from '../logger.js';
import type { HookContext } from '../resources/define.js';
import { UPLOAD_URL_SECONDS, type ImportRef } from './import-keys.js';
import { continueImport, storeImportFile, uploadUrl } from './upload.js';

/**
 * What the API's requests do with a contact import (the resource's hooks; resume is in import-resume.ts). They parse
 * no CSV and import no row: a body import is stored like an upload whose file came with the
 * request, and every import runs in the background (shared/contact-imports/import-work.ts, in
 * the lead runner). This module keeps the contacts function free of the CSV parser and the
 * import runner (shared/contact-imports/import-run.ts) with the lead engine it calls.
 */

/**
 * Uploads await their file until the URL expires; a body import has its file (the `csv` field,
 * its UTF-8 size as `file_size`, so the background checks it as it checks an upload) and is
 * `queued` for the background step that reads it.
 */
export async function acquire(context: HookContext, draft: { record: Record<string, unknown>; fields: Record<string, unknown> }) {
  if (draft.record.source === 'upload') {
    const expires = new Date(context.now.getTime() + UPLOAD_URL_SECONDS * 1000).toISOString();
    return { fields: { status: 'awaiting_upload', upload_expires_at: expires }, release: async () => undefined };
  }
  return { fields: { status: 'queued', file_size: Buffer.byteLength(String(draft.fields.csv ?? '')) }, release: async () => undefined };
}

/**
 * A new upload import answers its upload URL (shown in this response only); a new body import
 * stores its CSV under the import's key (where an upload's file goes), whose arrival brings its
 * first step as an upload's does. Updates change its name only.
 */
export async function afterWrite(context: HookContext, change: { before?: Record<string, unknown>; after: Record<string, unknown>; fields: Record<string, unknown> }): Promise<void | Record<string, unknown>> {
  if (change.before) return;
  const record = change.after as StoredRecord;
  if (record.source === 'upload') return { upload_url: await uploadUrl(context.companyId, record) };
  const ref = { companyId: context.companyId, importId: record.id };
  let stored: { announced: boolean };
  try {
    stored = await storeImportFile(ref, String(change.fields.csv ?? ''));
  } catch (error) {
    // Without its file the import can never run: failed, saying so, rather than queued forever.
    logger.error('could not store a contact import’s CSV', { ...ref, error });
    const at = context.now.toISOString();
    const failed = { status: 'failed', file_errors: { csv: ['could not be stored: create the import again'] }, finished_at: at, updated_at: at };
    await updateRecord(ref.companyId, 'contact_imports', ref.importId, failed);
    return failed;
  }
  // S3's event of the new object brings the first step, as an upload's does; local files need it queued.
  if (!stored.announced) await queue(ref);
}

/** Queues an import's next step; a queueing failure is logged, not answered (the import is saved and a resume queues it again). */
async function queue(ref: ImportRef): Promise<void> {
  try {
    await continueImport(ref);
  } catch (error) {
    logger.error('could not queue a contact import’s background step (a resume queues it again)', { ...ref, error });
  }
}
