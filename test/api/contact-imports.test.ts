import { afterEach, describe, expect, it } from 'vitest';
import { backgroundWork, createBackgroundWork, drainLocalWork, setBackgroundWork } from '../../shared/adapters/background-work.js';
import { objectStorage, setObjectStorage } from '../../shared/adapters/object-storage.js';
import { importObjectKey } from '../../shared/contact-imports/import-keys.js';
import { updateRecord } from '../../shared/db/records.js';
import type { BackgroundWork } from '../../shared/ports/background-work.js';
import { createTestCompany, type TestCompany } from '../fixtures/company.js';
import { usePinnedClock } from '../fixtures/clock.js';
import { expect404, expect422, recordOf } from '../fixtures/envelope.js';
import { call, useGateway } from '../fixtures/gateway.js';
import { asCompany, offerWithToken } from '../fixtures/leads.js';
import { listThrough } from '../fixtures/records.js';

/**
 * Contact imports (docs/resources.md, "Data appends and contact imports"): a CSV of contacts or
 * leads in the body, its fields checked at create, then (in the background, as an upload's file)
 * checked whole and imported row by row with progress and per-row errors on the record. Locally
 * background work runs when drained (drainLocalWork), as the lead runner takes it in AWS.
 */
const gateway = useGateway();
usePinnedClock(() => new Date('2026-03-04T12:00:00Z'));
const as = (company: TestCompany, method: string, path: string, json?: unknown) => asCompany(gateway, company, method, path, json);

afterEach(() => {
  delete process.env.CONTACT_IMPORT_BUDGET_MS;
});

const numberOf = (index: number, area = '720') => `+1${area}55${String(index).padStart(5, '0')}`;
const show = async (company: TestCompany, id: number) => recordOf(await as(company, 'GET', `/api/v1/contact_imports/${id}`), 'contact_import');

/** Creates a body import, answered `queued`, and runs its background work; the import as it then stands. */
async function importCsv(company: TestCompany, fields: Record<string, unknown>): Promise<Record<string, any>> {
  const created = recordOf(await as(company, 'POST', '/api/v1/contact_imports', fields), 'contact_import');
  expect(created).toMatchObject({ source: 'body', status: 'queued', file_size: Buffer.byteLength(String(fields.csv)), total_rows: 0, processed_rows: 0 });
  expect(await drainLocalWork()).toBeGreaterThanOrEqual(1);
  return show(company, created.id);
}

describe('a contact import', () => {
  it('of 1,000 rows with three bad rows imports the 997 good ones, visible through the contacts API, and reports the three', async () => {
    // One background step imports it all: a generous budget (see the resume test).
    process.env.CONTACT_IMPORT_BUDGET_MS = '600000';
    const company = await createTestCompany('import 1000');
    const lines = ['Caller_ID,first_name,last_name,email,plan'];
    for (let index = 1; index <= 1000; index++) {
      if (index === 10) lines.push('not a number,Bad,Number,bad@example.com,gold');
      else if (index === 500) lines.push(`${numberOf(index)},Bad,Email,not-an-email,gold`);
      else if (index === 999) lines.push(',No,Number,nobody@example.com,gold');
      else lines.push(`${numberOf(index)},First${index},"Last, ${index}",p${index}@example.com,${index % 2 ? 'gold' : 'silver'}`);
    }
    const created = await importCsv(company, { name: 'Spring list', csv: lines.join('\n') });
    expect(created).toMatchObject({
      type: 'ContactImport',
      name: 'Spring list',
      import_type: 'contacts',
      status: 'completed',
      columns: ['caller_id', 'first_name', 'last_name', 'email', 'plan'],
      total_rows: 1000,
      processed_rows: 1000,
      imported_count: 997,
      error_count: 3,
      row_errors: [
        { row: 10, errors: { caller_id: ['is not a phone number'] } },
        { row: 500, errors: { email: ['is not a valid e-mail address'] } },
        { row: 999, errors: { caller_id: ["can't be blank"] } },
      ],
      finished_at: expect.any(String),
    });
    expect(created).not.toHaveProperty('csv');
    expect(created).not.toHaveProperty('chunk_starts');

    for (const index of [1, 2, 998, 1000]) {
      const contact = recordOf(await as(company, 'GET', `/api/v1/contacts/${encodeURIComponent(numberOf(index))}`), 'contact');
      expect(contact).toMatchObject({ caller_id: numberOf(index), first_name: `First${index}`, last_name: `Last, ${index}`, email: `p${index}@example.com`, data: { plan: index % 2 ? 'gold' : 'silver' } });
    }
    // The bad rows wrote nothing.
    expect((await as(company, 'GET', `/api/v1/contacts/${encodeURIComponent(numberOf(500))}`)).status).toBe(404);
    // Another company sees neither the import nor its contacts.
    const other = await createTestCompany('import 1000 other');
    expect404(await as(other, 'GET', `/api/v1/contact_imports/${created.id}`));
    expect((await as(other, 'GET', `/api/v1/contacts/${encodeURIComponent(numberOf(1))}`)).status).toBe(404);
  });

  it('checks its fields at create, before anything is written, is updated by name only, never deleted, and scoped to its company', async () => {
    const company = await createTestCompany('import checks');
    const other = await createTestCompany('import checks other');
    const foreignOffer = await offerWithToken(gateway, other);
    expect422(await as(company, 'POST', '/api/v1/contact_imports', { import_type: 'people' }), {
      import_type: ['is not included in the list (contacts, leads)'],
      csv: ['is required'],
    });
    expect422(await as(company, 'POST', '/api/v1/contact_imports', { csv: '   ' }), { csv: ["can't be blank"] });
    expect422(await as(company, 'POST', '/api/v1/contact_imports', { csv: 'x'.repeat(1_000_001) }), { csv: ['is too long (maximum is 1000000 characters)'] });
    expect422(await as(company, 'POST', '/api/v1/contact_imports', { import_type: 'leads', csv: 'caller_id\n+17205550001' }), { offer_id: ['one of offer_id and schedule_id is required to import leads'] });
    expect422(await as(company, 'POST', '/api/v1/contact_imports', { offer_id: foreignOffer.id, csv: 'caller_id\n+17205550001' }), { offer_id: ['must be blank when importing contacts'] });
    const foreign = await as(company, 'POST', '/api/v1/contact_imports', { import_type: 'leads', offer_id: foreignOffer.id, csv: 'caller_id\n+17205550001' });
    expect(foreign.status, foreign.text).toBe(422);
    expect(Object.keys(foreign.body.errors)).toEqual(['offer_id']);
    expect(await listThrough(gateway, company, '/api/v1/contact_imports', 'contact_imports')).toEqual([]);
    expect(await drainLocalWork()).toBe(0);

    const made = await importCsv(company, { csv: 'phone,notes\n720-555-0001,Called back' });
    expect(made).toMatchObject({ status: 'completed', imported_count: 1, error_count: 0, row_errors: [], file_errors: null });
    expect(recordOf(await as(company, 'PUT', `/api/v1/contact_imports/${made.id}`, { name: 'Renamed' }), 'contact_import')).toMatchObject({ name: 'Renamed', imported_count: 1 });
    expect422(await as(company, 'PUT', `/api/v1/contact_imports/${made.id}`, { status: 'pending' }), { status: ['cannot be changed: the import sets it'] });
    expect((await as(company, 'DELETE', `/api/v1/contact_imports/${made.id}`)).status).toBe(405);
    expect404(await as(other, 'PUT', `/api/v1/contact_imports/${made.id}`, { name: 'Taken' }));
    expect404(await as(other, 'POST', `/api/v1/contact_imports/${made.id}/resume`));
    expect((await as(company, 'POST', `/api/v1/contact_imports/${made.id}/resume`)).status).toBe(409);
    const csv = await call(gateway, { path: '/api/v1/contact_imports.csv?columns=id,name,status,imported_count', authorization: company.authorization });
    expect(csv.text.trim().split('\n')).toEqual(['id,name,status,imported_count', `${made.id},Renamed,completed,1`]);
  });

  it('of a CSV that cannot be imported fails whole in the background, with file_errors as an upload’s, and writes no row', async () => {
    const company = await createTestCompany('import bad csv');
    const tooMany = ['phone', ...Array.from({ length: 10_001 }, (_, index) => numberOf(index))].join('\n');
    const cases: [string, string | RegExp][] = [
      ['first_name\nAda', 'has no caller number column (one of caller_id, caller_number, phone_number, phone, number)'],
      ['phone', 'has no rows after the header'],
      ['phone,name\n"+17205550001,Ada\n', /^is not valid CSV/],
      [tooMany, 'has too many rows (maximum is 10000)'],
    ];
    for (const [csv, message] of cases) {
      const failed = await importCsv(company, { csv });
      expect(failed, String(message)).toMatchObject({ status: 'failed', total_rows: 0, processed_rows: 0, imported_count: 0, finished_at: expect.any(String) });
      expect(failed.file_errors.csv).toEqual([typeof message === 'string' ? message : expect.stringMatching(message)]);
      expect((await as(company, 'POST', `/api/v1/contact_imports/${failed.id}/resume`)).status).toBe(409);
    }
    expect((await as(company, 'GET', `/api/v1/contacts/${encodeURIComponent('+17205550001')}`)).status).toBe(404);
    expect((await as(company, 'GET', `/api/v1/contacts/${encodeURIComponent(numberOf(1))}`)).status).toBe(404);
  });

  it('of leads submits each row as POST /api/v1/leads does, with the offer’s lead token', async () => {
    const company = await createTestCompany('import leads');
    const offer = await offerWithToken(gateway, company);
    const csv = ['caller_id,first_name,email,source', `${numberOf(1, '303')},Ada,ada@example.com,fair`, ',Nobody,,fair', `${numberOf(3, '303')},Cy,,web`].join('\n');
    const made = await importCsv(company, { import_type: 'leads', offer_id: offer.id, csv });
    expect(made).toMatchObject({ status: 'completed', total_rows: 3, imported_count: 2, error_count: 1, row_errors: [{ row: 2, errors: { caller_id: ["can't be blank when email is blank"] } }] });
    const leads = await listThrough(gateway, company, `/api/v1/leads?offer_id=${offer.id}`, 'leads');
    expect(leads.map((lead) => lead.caller_id).sort()).toEqual([numberOf(1, '303'), numberOf(3, '303')]);
  });

  it('whose background step was lost goes on with resume, which queues the next step (one batch at least each)', async () => {
    process.env.CONTACT_IMPORT_BUDGET_MS = '0';
    const company = await createTestCompany('import resume');
    const csv = ['phone', ...Array.from({ length: 60 }, (_, index) => numberOf(index + 1, '412'))].join('\n');
    // The create's step is queued elsewhere and lost (a queue that failed, a message deleted by hand).
    const lost: BackgroundWork[] = [];
    setBackgroundWork({ enqueue: async (work) => void lost.push(work) });
    const made = recordOf(await as(company, 'POST', '/api/v1/contact_imports', { csv }), 'contact_import');
    setBackgroundWork();
    expect(lost).toEqual([{ kind: 'contact_import', companyId: company.id, importId: made.id }]);
    expect(made).toMatchObject({ status: 'queued', total_rows: 0, processed_rows: 0, finished_at: null });
    // Resume answers the import as it stands and leaves the work to the background.
    expect(recordOf(await as(company, 'POST', `/api/v1/contact_imports/${made.id}/resume`), 'contact_import')).toMatchObject({ status: 'queued', processed_rows: 0 });
    // The file and one batch (25), then 50, then 60.
    expect(await drainLocalWork()).toBe(3);
    expect(await show(company, made.id)).toMatchObject({ status: 'completed', total_rows: 60, processed_rows: 60, imported_count: 60 });
    expect((await as(company, 'POST', `/api/v1/contact_imports/${made.id}/resume`)).status).toBe(409);
    expect(recordOf(await as(company, 'GET', `/api/v1/contacts/${encodeURIComponent(numberOf(60, '412'))}`), 'contact').caller_id).toBe(numberOf(60, '412'));
  });

  it('stored in S3 leaves its first step to the new object’s event, as an upload does (one step, not two)', async () => {
    const company = await createTestCompany('import s3');
    const local = objectStorage();
    // Local files standing in for S3, whose Object Created events under imports/ the stack's rule sends to the runner's queue.
    setObjectStorage(Object.assign(Object.create(local) as typeof local, { announcesImports: true }));
    try {
      const csv = `phone,first_name\n${numberOf(1, '414')},Ada`;
      const made = recordOf(await as(company, 'POST', '/api/v1/contact_imports', { csv }), 'contact_import');
      expect(made).toMatchObject({ status: 'queued' });
      const key = importObjectKey({ companyId: company.id, importId: made.id });
      expect(Buffer.from((await objectStorage().get(key))!).toString()).toBe(csv);
      expect(await drainLocalWork()).toBe(0);
      // The step the event brings (the lead runner reads the event as this import's work).
      await backgroundWork().enqueue({ kind: 'contact_import', companyId: company.id, importId: made.id });
      expect(await drainLocalWork()).toBe(1);
      expect(await show(company, made.id)).toMatchObject({ status: 'completed', imported_count: 1 });
      expect(await objectStorage().get(key)).toBeUndefined();
    } finally {
      setObjectStorage();
    }
  });

  it('whose CSV cannot be stored is answered failed, saying so, with nothing queued', async () => {
    const company = await createTestCompany('import store down');
    const local = objectStorage();
    setObjectStorage(Object.assign(Object.create(local) as typeof local, { put: async () => Promise.reject(new Error('storage is down')) }));
    try {
      const made = recordOf(await as(company, 'POST', '/api/v1/contact_imports', { csv: `phone\n${numberOf(1, '415')}` }), 'contact_import');
      expect(made).toMatchObject({ status: 'failed', file_errors: { csv: ['could not be stored: create the import again'] }, finished_at: expect.any(String) });
      expect(await show(company, made.id)).toMatchObject({ status: 'failed', file_errors: { csv: ['could not be stored: create the import again'] } });
      expect(await drainLocalWork()).toBe(0);
    } finally {
      setObjectStorage();
    }
  });

  it('whose step was queued before a restart completes when the new process drains', async () => {
    const company = await createTestCompany('import restart');
    const made = recordOf(await as(company, 'POST', '/api/v1/contact_imports', { csv: `caller_id,first_name\n${numberOf(1, '416')},Bea` }), 'contact_import');
    expect(made).toMatchObject({ status: 'queued' });
    // A new adapter on the same queue, as `npm start` makes after a restart: the step is in the table, not in the old instance.
    setBackgroundWork(createBackgroundWork());
    try {
      expect(await drainLocalWork()).toBe(1);
      expect(await show(company, made.id)).toMatchObject({ status: 'completed', imported_count: 1 });
    } finally {
      setBackgroundWork();
    }
  });

  it('answers 409 to a resume while a background step holds it', async () => {
    const company = await createTestCompany('import resume busy');
    const made = recordOf(await as(company, 'POST', '/api/v1/contact_imports', { csv: `phone\n${numberOf(1, '413')}` }), 'contact_import');
    await updateRecord(company.id, 'contact_imports', made.id, { lease_until: '2100-01-01T00:00:00.000Z' });
    const busy = await as(company, 'POST', `/api/v1/contact_imports/${made.id}/resume`);
    expect(busy.status).toBe(409);
    expect(busy.body.errors).toEqual({ status: ['is being imported in the background now'] });
    await updateRecord(company.id, 'contact_imports', made.id, { lease_until: '2000-01-01T00:00:00.000Z' });
    await drainLocalWork();
    expect(await show(company, made.id)).toMatchObject({ status: 'completed', imported_count: 1 });
  });
});
