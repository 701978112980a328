import type { Context, SQSEvent } from 'aws-lambda';
import { afterEach, describe, expect, it } from 'vitest';
import { backgroundWork, drainLocalWork } from '../../shared/adapters/background-work.js';
import { objectStorage } from '../../shared/adapters/object-storage.js';
import type { TableWork } from '../../shared/adapters/local/table-work.js';
import { importObjectKey, MAX_UPLOAD_BYTES, UPLOAD_URL_SECONDS } from '../../shared/contact-imports/import-keys.js';
import { createTestCompany, type TestCompany } from '../fixtures/company.js';
import { midDayTomorrow, pinClock, usePinnedClock } from '../fixtures/clock.js';
import { expect404, expect422, recordOf } from '../fixtures/envelope.js';
import { call, useGateway, type ApiReply } from '../fixtures/gateway.js';
import { asCompany } from '../fixtures/leads.js';

/**
 * Contact imports uploaded to object storage and run in the background (docs/resources.md,
 * "Data appends and contact imports"): create with `source: upload` answers an upload URL; the
 * file PUT there is taken and imported without the client calling again; an import that outlasts
 * its budget goes on by itself. Locally the URL is the service's own token route and background
 * work runs in this process when drained, from a queue in the table (as the lead runner takes it from its queue in AWS).
 */
const gateway = useGateway();
const now = midDayTomorrow();
usePinnedClock(() => now);
const as = (company: TestCompany, method: string, path: string, json?: unknown) => asCompany(gateway, company, method, path, json);

afterEach(() => {
  delete process.env.CONTACT_IMPORT_BUDGET_MS;
});

const numberOf = (index: number, area = '615') => `+1${area}55${String(index).padStart(5, '0')}`;
const contactsCsv = (count: number, area: string, bad: number[] = []) =>
  ['phone,first_name,email', ...Array.from({ length: count }, (_, i) => (bad.includes(i + 1) ? `${numberOf(i + 1, area)},Bad,not-an-email` : `${numberOf(i + 1, area)},P${i + 1},p${i + 1}@example.com`))].join('\n');

async function createUpload(company: TestCompany, csv: string, fields: Record<string, unknown> = {}): Promise<Record<string, any>> {
  return recordOf(await as(company, 'POST', '/api/v1/contact_imports', { source: 'upload', file_size: Buffer.byteLength(csv), ...fields }), 'contact_import');
}

/** PUT to an upload URL as a client would (`curl -T file URL`), through the local gateway. */
function put(url: string, body: string): Promise<ApiReply> {
  const { pathname } = new URL(url);
  return call(gateway, { method: 'PUT', path: pathname, rawBody: body, headers: { 'content-type': 'text/csv' } });
}

const show = async (company: TestCompany, id: number) => recordOf(await as(company, 'GET', `/api/v1/contact_imports/${id}`), 'contact_import');

describe('an uploaded contact import', () => {
  it('answers an upload URL, takes the file PUT there and imports it in the background with its row errors, no resume needed', async () => {
    const company = await createTestCompany('upload import');
    const csv = contactsCsv(40, '615', [7, 33]);
    const created = await createUpload(company, csv, { name: 'From S3' });
    expect(created).toMatchObject({
      name: 'From S3',
      source: 'upload',
      file_size: Buffer.byteLength(csv),
      status: 'awaiting_upload',
      upload_url: expect.stringMatching(/^http:\/\/.+\/api\/v1\/contact_imports\/uploads\/[A-Za-z0-9_-]{32}$/),
      upload_expires_at: expect.any(String),
      total_rows: 0,
      file_errors: null,
    });
    // The clock moves a millisecond per reading.
    expect(Date.parse(created.upload_expires_at) - Date.parse(created.created_at)).toBeGreaterThanOrEqual(UPLOAD_URL_SECONDS * 1000 - 10);
    expect(Date.parse(created.upload_expires_at) - Date.parse(created.created_at)).toBeLessThanOrEqual(UPLOAD_URL_SECONDS * 1000 + 10);
    // The URL is a credential for the file: the create's answer only.
    const shown = await show(company, created.id);
    expect(shown).not.toHaveProperty('upload_url');
    expect(shown.status).toBe('awaiting_upload');
    expect((await as(company, 'POST', `/api/v1/contact_imports/${created.id}/resume`)).body.errors).toEqual({ status: ['is awaiting its upload (a file PUT to upload_url is taken in the background)'] });

    const uploaded = await put(created.upload_url, csv);
    expect(uploaded.status, uploaded.text).toBe(200);
    // Stored under the company's own key, waiting for the background step.
    expect(Buffer.from((await objectStorage().get(importObjectKey({ companyId: company.id, importId: created.id })))!).toString()).toBe(csv);
    expect(await drainLocalWork()).toBeGreaterThanOrEqual(1);

    const done = await show(company, created.id);
    expect(done).toMatchObject({
      status: 'completed',
      columns: ['phone', 'first_name', 'email'],
      total_rows: 40,
      processed_rows: 40,
      imported_count: 38,
      error_count: 2,
      row_errors: [
        { row: 7, errors: { email: ['is not a valid e-mail address'] } },
        { row: 33, errors: { email: ['is not a valid e-mail address'] } },
      ],
      file_errors: null,
      finished_at: expect.any(String),
    });
    expect(recordOf(await as(company, 'GET', `/api/v1/contacts/${encodeURIComponent(numberOf(40, '615'))}`), 'contact')).toMatchObject({ first_name: 'P40', email: 'p40@example.com' });
    // The file is gone once its rows are in the table; the URL takes nothing more.
    expect(await objectStorage().get(importObjectKey({ companyId: company.id, importId: created.id }))).toBeUndefined();
    expect((await put(created.upload_url, csv)).status).toBe(409);
    const listed = await call(gateway, { path: '/api/v1/contact_imports.csv?source=upload&columns=id,source,status,imported_count', authorization: company.authorization });
    expect(listed.text.trim().split('\n')).toEqual(['id,source,status,imported_count', `${created.id},upload,completed,38`]);
  });

  it('refuses an oversized file clearly: at create, at the PUT, and again when the stored file is read', async () => {
    const company = await createTestCompany('upload limits');
    expect422(await as(company, 'POST', '/api/v1/contact_imports', { source: 'upload', file_size: MAX_UPLOAD_BYTES + 1 }), {
      file_size: [`is larger than the largest upload (${MAX_UPLOAD_BYTES} bytes): split the file`],
    });
    expect422(await as(company, 'POST', '/api/v1/contact_imports', { source: 'upload' }), { file_size: ["is required for an upload (the file's size in bytes)"] });
    expect422(await as(company, 'POST', '/api/v1/contact_imports', { source: 'upload', file_size: 10, csv: 'phone\n1' }), { csv: ['must be blank for an upload (PUT the file to upload_url)'] });
    expect422(await as(company, 'POST', '/api/v1/contact_imports', { file_size: 10, csv: 'phone\n+17205550001' }), { file_size: ['must be blank when the CSV is in the body'] });
    expect422(await as(company, 'POST', '/api/v1/contact_imports', { source: 'file', file_size: 10 }), { source: ['is not included in the list (body, upload)'] });

    // The URL takes exactly the bytes declared (S3 signs the length): more is a 413, less a 400.
    const csv = contactsCsv(3, '629');
    const created = await createUpload(company, csv);
    const longer = `${csv}\n${numberOf(4, '629')},Extra,e@example.com`;
    const larger = await put(created.upload_url, longer);
    expect(larger.status).toBe(413);
    expect(larger.body.errors.body).toEqual([`is ${Buffer.byteLength(longer)} bytes: the import declared file_size ${Buffer.byteLength(csv)}`]);
    expect((await put(created.upload_url, csv.slice(0, 10))).status).toBe(400);
    expect((await show(company, created.id)).status).toBe('awaiting_upload');
    expect(await drainLocalWork()).toBe(0);

    // A file that reached storage anyway (larger than declared) is refused before it is read, and deleted.
    const key = importObjectKey({ companyId: company.id, importId: created.id });
    await objectStorage().put({ key, body: `${csv}\n${'x'.repeat(100)}`, contentType: 'text/csv' });
    await backgroundWork().enqueue({ kind: 'contact_import', companyId: company.id, importId: created.id });
    await drainLocalWork();
    expect(await show(company, created.id)).toMatchObject({
      status: 'failed',
      imported_count: 0,
      file_errors: { csv: [`is ${Buffer.byteLength(csv) + 101} bytes: larger than the file_size declared (${Buffer.byteLength(csv)}) or the largest upload (${MAX_UPLOAD_BYTES})`] },
      finished_at: expect.any(String),
    });
    expect(await objectStorage().get(key)).toBeUndefined();
    expect((await as(company, 'POST', `/api/v1/contact_imports/${created.id}/resume`)).status).toBe(409);

    // A file of the right size that is not an importable CSV fails whole, with the body's messages.
    const noNumber = 'first_name\nAda';
    const second = await createUpload(company, noNumber);
    expect((await put(second.upload_url, noNumber)).status).toBe(200);
    await drainLocalWork();
    expect(await show(company, second.id)).toMatchObject({ status: 'failed', total_rows: 0, file_errors: { csv: ['has no caller number column (one of caller_id, caller_number, phone_number, phone, number)'] } });
  });

  it('takes no file after its URL expires, and an unknown token is a 404', async () => {
    const company = await createTestCompany('upload expiry');
    const csv = contactsCsv(2, '731');
    const created = await createUpload(company, csv);
    pinClock(new Date(now.getTime() + (UPLOAD_URL_SECONDS + 1) * 1000));
    const late = await put(created.upload_url, csv);
    expect(late.status).toBe(403);
    expect(late.body.errors).toEqual({ base: ['the upload URL has expired: create another import'] });
    expect((await put(created.upload_url.replace(/[^/]{32}$/, 'A'.repeat(32)), csv)).status).toBe(404);
    expect((await show(company, created.id)).status).toBe('awaiting_upload');
  });

  it('is its company’s only: another company neither sees it nor reaches it, and each URL names one import', async () => {
    const company = await createTestCompany('upload owner');
    const other = await createTestCompany('upload other');
    const csv = contactsCsv(2, '865');
    // Ids are per company: this import is the owner's second, the other company has a first only.
    await createUpload(company, csv);
    const created = await createUpload(company, csv);
    expect(created.id).toBe(2);
    const theirs = await createUpload(other, contactsCsv(2, '866'));
    expect404(await as(other, 'GET', `/api/v1/contact_imports/${created.id}`));
    expect404(await as(other, 'PUT', `/api/v1/contact_imports/${created.id}`, { name: 'Taken' }));
    expect404(await as(other, 'POST', `/api/v1/contact_imports/${created.id}/resume`));
    expect((await as(other, 'GET', '/api/v1/contact_imports?source=upload')).body.contact_imports.map((record: { id: number }) => record.id)).toEqual([theirs.id]);
    // The other company's URL stores its own file under its own key, never this import's.
    expect((await put(theirs.upload_url, contactsCsv(2, '866'))).status).toBe(200);
    expect(await objectStorage().get(importObjectKey({ companyId: company.id, importId: created.id }))).toBeUndefined();
    expect(await objectStorage().get(importObjectKey({ companyId: other.id, importId: theirs.id }))).toBeDefined();
    await drainLocalWork();
    expect((await show(company, created.id)).status).toBe('awaiting_upload');
    expect(await show(other, theirs.id)).toMatchObject({ status: 'completed', imported_count: 2 });
    expect((await as(company, 'GET', `/api/v1/contacts/${encodeURIComponent(numberOf(1, '866'))}`)).status).toBe(404);
  });
});

describe('an import past its time budget', () => {
  it('goes on by itself in the background, one step per budget, until it completes', async () => {
    process.env.CONTACT_IMPORT_BUDGET_MS = '0';
    const company = await createTestCompany('import background');
    const made = recordOf(await as(company, 'POST', '/api/v1/contact_imports', { csv: contactsCsv(110, '512') }), 'contact_import');
    // The request imports nothing: its CSV is stored like an upload's file and the first step queued.
    expect(made).toMatchObject({ source: 'body', status: 'queued', processed_rows: 0 });
    expect(Buffer.from((await objectStorage().get(importObjectKey({ companyId: company.id, importId: made.id })))!).toString()).toBe(contactsCsv(110, '512'));
    // Five steps of one batch each (the file and 25, then 50, 75, 100, 110), each queued by the one before.
    expect(await drainLocalWork()).toBe(5);
    expect(await show(company, made.id)).toMatchObject({ status: 'completed', processed_rows: 110, imported_count: 110, error_count: 0 });
    expect(recordOf(await as(company, 'GET', `/api/v1/contacts/${encodeURIComponent(numberOf(110, '512'))}`), 'contact').first_name).toBe('P110');
    // The file is gone once its rows are in the table.
    expect(await objectStorage().get(importObjectKey({ companyId: company.id, importId: made.id }))).toBeUndefined();
  });

  it('of an upload too, from the step that takes the file', async () => {
    process.env.CONTACT_IMPORT_BUDGET_MS = '0';
    const company = await createTestCompany('upload background');
    const csv = contactsCsv(80, '513');
    const created = await createUpload(company, csv);
    expect((await put(created.upload_url, csv)).status).toBe(200);
    // Taken by the background, not by a resume.
    expect((await as(company, 'POST', `/api/v1/contact_imports/${created.id}/resume`)).status).toBe(409);
    // The file and one batch (25), then 50, 75, 80.
    expect(await drainLocalWork()).toBe(4);
    expect(await show(company, created.id)).toMatchObject({ status: 'completed', total_rows: 80, processed_rows: 80, imported_count: 80 });
  });

  it('lets a resume join in: the steps share the work lease and the import completes once', async () => {
    process.env.CONTACT_IMPORT_BUDGET_MS = '0';
    const company = await createTestCompany('resume joins');
    const made = recordOf(await as(company, 'POST', '/api/v1/contact_imports', { csv: contactsCsv(110, '514') }), 'contact_import');
    expect(recordOf(await as(company, 'POST', `/api/v1/contact_imports/${made.id}/resume`), 'contact_import')).toMatchObject({ status: 'queued', processed_rows: 0 });
    // Queued by the create (the file and 25) and by the resume (50), each queueing the next: 75, 100, 110, then one that finds it completed.
    expect(await drainLocalWork()).toBe(6);
    expect(await show(company, made.id)).toMatchObject({ status: 'completed', processed_rows: 110, imported_count: 110 });
  });
});

describe('the lead runner, as in AWS', () => {
  it('imports an upload when its queue brings EventBridge’s S3 "Object Created" event, and drops other messages', async () => {
    const company = await createTestCompany('upload runner');
    const csv = contactsCsv(12, '701', [5]);
    const created = await createUpload(company, csv);
    const key = importObjectKey({ companyId: company.id, importId: created.id });
    // What S3 stored from the presigned PUT.
    await objectStorage().put({ key, body: csv, contentType: 'text/csv' });
    const event = { version: '0', source: 'aws.s3', 'detail-type': 'Object Created', detail: { bucket: { name: 'uploads' }, object: { key, size: Buffer.byteLength(csv) } } };
    const { handler } = await import('../../functions/lead-runner/handler.js');
    const context = { invokedFunctionArn: 'arn:aws:lambda:us-east-1:111122223333:function:runner', functionName: 'runner', awsRequestId: 'r', getRemainingTimeInMillis: () => 60_000 } as unknown as Context;
    const elsewhere = { ...event, detail: { bucket: { name: 'uploads' }, object: { key: `exports/${company.id}/1.csv` } } };
    const bodies = [JSON.stringify(event), JSON.stringify(elsewhere), JSON.stringify({ Service: 'Amazon S3', Event: 's3:TestEvent' })];
    const sqs = { Records: bodies.map((body, index) => ({ messageId: `m${index}`, receiptHandle: `h${index}`, body, attributes: { ApproximateReceiveCount: '1' } })) } as unknown as SQSEvent;
    expect(await handler(sqs as never, context)).toEqual({ batchItemFailures: [] });
    expect(await show(company, created.id)).toMatchObject({ status: 'completed', total_rows: 12, imported_count: 11, error_count: 1, row_errors: [{ row: 5, errors: { email: ['is not a valid e-mail address'] } }] });
    expect(await objectStorage().get(key)).toBeUndefined();
  });

  it('keeps a step within what is left of the invocation: near its end one batch, the rest queued', async () => {
    const company = await createTestCompany('upload runner budget');
    const csv = contactsCsv(60, '702');
    const created = await createUpload(company, csv);
    await objectStorage().put({ key: importObjectKey({ companyId: company.id, importId: created.id }), body: csv, contentType: 'text/csv' });
    // Nothing left over from earlier tests: what is queued below is this step's own.
    await drainLocalWork();
    const { handler } = await import('../../functions/lead-runner/handler.js');
    // 20 s left of the runner's 60: no time for more than the one batch every step makes.
    const context = { invokedFunctionArn: 'arn:aws:lambda:us-east-1:111122223333:function:runner', functionName: 'runner', awsRequestId: 'r', getRemainingTimeInMillis: () => 20_000 } as unknown as Context;
    const body = JSON.stringify({ kind: 'contact_import', companyId: company.id, importId: created.id });
    const sqs = { Records: [{ messageId: 'm0', receiptHandle: 'h0', body, attributes: { ApproximateReceiveCount: '1' } }] } as unknown as SQSEvent;
    expect(await handler(sqs as never, context)).toEqual({ batchItemFailures: [] });
    expect(await show(company, created.id)).toMatchObject({ status: 'in_progress', total_rows: 60, processed_rows: 25 });
    const local = backgroundWork() as TableWork;
    expect(await local.pending()).toEqual([{ kind: 'contact_import', companyId: company.id, importId: created.id }]);
    expect(await drainLocalWork()).toBe(1);
    expect(await show(company, created.id)).toMatchObject({ status: 'completed', processed_rows: 60, imported_count: 60 });
  });
});
