import { randomBytes } from 'node:crypto';
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { publicApiBase } from '../call-config/sounds.js';
import { db, tableName } from '../db/client.js';
import { keys } from '../db/keys.js';
import { getRecord, type StoredRecord } from '../db/records.js';
import { ConflictError, ForbiddenError, HttpError, NotFoundError } from '../http/errors.js';
import type { Operation } from '../http/request.js';
import { importObjectKey, UPLOAD_URL_SECONDS, type ImportRef } from './import-keys.js';

/**
 * Uploads of contact imports (docs/resources.md, "Contact imports"). Creating an import with
 * `source: upload` answers a URL the client PUTs the file to, exactly `file_size` bytes, within
 * UPLOAD_URL_SECONDS: in AWS a presigned S3 PutObject of `imports/<company>/<import>.csv` (the
 * length signed, so S3 refuses any other), whose arrival EventBridge sends to the lead runner's
 * queue; with local object storage the service's own PUT /api/v1/contact_imports/uploads/{upload_token}
 * (an unguessable token naming that one import, with the same checks), which stores the file
 * and queues the same background work. Either way the import then runs by itself
 * (shared/contact-imports/import-work.ts).
 */

/** The object storage adapter, loaded on first use (only uploads load the S3 client). */
async function storage() {
  return (await import('../adapters/object-storage.js')).objectStorage();
}

/** Queues an import's next step in the background (the adapter loaded on first use). */
export async function continueImport(ref: ImportRef, delaySeconds = 0): Promise<void> {
  await (await import('../adapters/background-work.js')).backgroundWork().enqueue({ kind: 'contact_import', ...ref }, delaySeconds);
}

/**
 * Stores an import's file under its key (an upload that arrived, or a body import's CSV), for its
 * background step to read; whether the store announces it itself (S3: the step comes from its
 * event, so queueing one too would start a second), else the caller queues the step.
 */
export async function storeImportFile(ref: ImportRef, body: Uint8Array | string): Promise<{ announced: boolean }> {
  const store = await storage();
  await store.put({ key: importObjectKey(ref), body, contentType: 'text/csv' });
  return { announced: store.announcesImports };
}

const TOKEN = /^[A-Za-z0-9_-]{32}$/;
const tokenKey = (token: string) => keys.globalLookup('contact_imports', 'upload_token', token);

/** The service's own upload URL of a token (local object storage). */
export function servedUploadUrl(token: string, env: NodeJS.ProcessEnv = process.env): string {
  return `${publicApiBase(env)}/api/v1/contact_imports/uploads/${token}`;
}

/**
 * Where the client PUTs an upload import's file: the store's presigned URL, or (local files) a
 * token of the service's own route, kept until the URL expires (then DynamoDB's TTL takes it).
 */
export async function uploadUrl(companyId: number, record: StoredRecord): Promise<string> {
  const key = importObjectKey({ companyId, importId: record.id });
  const bytes = Number(record.file_size);
  const presigned = await (await storage()).presignedPutUrl(key, { expiresInSeconds: UPLOAD_URL_SECONDS, bytes });
  if (presigned) return presigned;
  const token = randomBytes(24).toString('base64url');
  const expires = String(record.upload_expires_at);
  await db.send(
    new PutCommand({
      TableName: tableName,
      Item: { ...tokenKey(token), company_id: companyId, import_id: record.id, bytes, upload_expires_at: expires, expires_at: Math.ceil(Date.parse(expires) / 1000) },
      ConditionExpression: 'attribute_not_exists(pk)',
    }),
  );
  return servedUploadUrl(token);
}

/**
 * PUT /api/v1/contact_imports/uploads/{upload_token} (local object storage; no credentials: the token is
 * the URL's secret, as a presigned URL's signature is). What S3 would refuse is refused: an
 * unknown token (404), an expired URL (403), a body of another length than `file_size` (413
 * larger, 400 smaller). An import no longer awaiting its file answers 409. The file is stored
 * under the import's key and its background work queued; 200 with no body, like S3.
 */
export const receiveUpload: Operation = async (request) => {
  const token = request.pathParams.upload_token ?? '';
  if (!TOKEN.test(token)) throw new NotFoundError();
  const found = (await db.send(new GetCommand({ TableName: tableName, Key: tokenKey(token), ConsistentRead: true }))).Item;
  if (!found) throw new NotFoundError();
  if (Date.parse(String(found.upload_expires_at)) < request.now.getTime()) throw new ForbiddenError('the upload URL has expired: create another import');
  const body = request.body ?? Buffer.alloc(0);
  const declared = Number(found.bytes);
  if (body.length !== declared) {
    const message = `is ${body.length} bytes: the import declared file_size ${declared}`;
    throw new HttpError(body.length > declared ? 413 : 400, message, { body: [message] });
  }
  const ref = { companyId: Number(found.company_id), importId: Number(found.import_id) };
  const record = await getRecord(ref.companyId, 'contact_imports', ref.importId);
  if (!record) throw new NotFoundError();
  if (record.status !== 'awaiting_upload') throw new ConflictError('status', 'is not awaiting an upload: the file has arrived already');
  // Served with local files only (S3 takes its presigned PUTs itself), which announce nothing.
  if (!(await storeImportFile(ref, body)).announced) await continueImport(ref);
  return { kind: 'raw', response: { statusCode: 200, headers: { 'content-length': '0' }, body: '' } };
};

