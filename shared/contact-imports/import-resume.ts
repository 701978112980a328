import { ConflictError } from '../http/errors.js';
import type { Operation } from '../http/request.js';
import { findVisible, recordResult } from '../resources/engine.js';
import { contactImports } from './contact-imports-resource.js';
import { continueImport } from './upload.js';

// Apart from the resource's hooks (import-requests.ts), which the declaration loads: this reads the declaration.
/**
 * POST /api/v1/contact_imports/{id}/resume: queues the import's next background step and answers
 * the record as it stands (409 when it is completed, failed, awaiting its upload, or a step holds
 * its work lease now).
 */
export const resumeContactImport: Operation = async (request) => {
  const companyId = request.auth.companyId;
  const record = await findVisible(contactImports, request);
  if (record.status === 'completed') throw new ConflictError('status', 'is completed: nothing is left to import');
  if (record.status === 'failed') throw new ConflictError('status', 'is failed: the file was refused (see file_errors)');
  if (record.status === 'awaiting_upload') throw new ConflictError('status', 'is awaiting its upload (a file PUT to upload_url is taken in the background)');
  if (typeof record.lease_until === 'string' && Date.parse(record.lease_until) > request.now.getTime()) throw new ConflictError('status', 'is being imported in the background now');
  await continueImport({ companyId, importId: record.id });
  return recordResult(contactImports, request, record);
};
