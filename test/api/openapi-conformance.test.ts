import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { routes } from '../../shared/http/routes.js';
import { call, failOnMismatches, useGateway } from '../fixtures/gateway.js';
import { checkAnswer, conformanceObserver, type Mismatch } from '../fixtures/openapi-conformance.js';

/**
 * The hook that checks every answer of the API tests against the OpenAPI document
 * (test/fixtures/openapi-conformance.ts) does fail on a mismatch. The offers function is replaced
 * by one that answers whatever a test sets, so the answers here are deliberately wrong.
 */
const answer = vi.hoisted(() => ({ status: 200, contentType: 'application/json; charset=utf-8', body: '' }));

vi.mock('../../functions/index.js', async (importOriginal) => {
  const original = await importOriginal<typeof import('../../functions/index.js')>();
  const handler = async () => ({ statusCode: answer.status, headers: { 'content-type': answer.contentType }, body: answer.body });
  return { handlerModules: { ...original.handlerModules, offers: async () => ({ handler }) } };
});

// Whatever mode the run is in (collect, for a survey), this file tests failing.
vi.stubEnv('OPENAPI_CONFORMANCE', 'fail');
const gateway = useGateway();
const offerEnvelope = (offer: Record<string, unknown>) => ({ status: 200, errors: {}, offer, checksum: '0'.repeat(32), metadata: { root: 'offer' } });
const answerWith = (body: unknown, status = 200, contentType = 'application/json; charset=utf-8') => Object.assign(answer, { status, contentType, body: typeof body === 'string' ? body : JSON.stringify(body) });

afterEach(() => answerWith(''));

describe('an answer the document does not describe', () => {
  it('fails the request at `call`, naming the operation, status, JSON pointer and schema keyword', async () => {
    answerWith(offerEnvelope({ id: '12', name: 'Offer' }));
    const refused = call(gateway, { path: '/api/v1/offers/12' });
    await expect(refused).rejects.toThrow('GET /api/v1/offers/{id} answered 200 not as the OpenAPI document says (request /api/v1/offers/12)');
    await expect(refused).rejects.toThrow(/at \/offer\/id \("12"\): type must be integer .*\[schema #\/components\/schemas\/Offer\/properties\/id\/type\]/);
  });

  it('fails a request sent with a bare fetch at the end of the test (failOnMismatches, run after each test)', async () => {
    answerWith({ status: 200, errors: {}, offers: 'none', metadata: { root: 'offers' } });
    const response = await fetch(`${gateway.baseUrl}/api/v1/offers`);
    expect(response.status).toBe(200);
    expect(() => failOnMismatches()).toThrow(/GET \/api\/v1\/offers answered 200 .*\n {2}at \/offers \("none"\): type must be array/);
    // Reported once: the hook after this test finds nothing left.
    expect(() => failOnMismatches()).not.toThrow();
  });

  it('fails a status the operation does not document, and an error envelope without `errors`', async () => {
    answerWith({ status: 409, errors: { name: ['taken'] }, metadata: {} }, 409);
    await expect(call(gateway, { path: '/api/v1/offers/12' })).rejects.toThrow(/\n  status 409 is not documented \(documented: 200, 400, 401, 403, 404, 413, 422, 500\)/);
    answerWith({ status: 404, metadata: {} }, 404);
    await expect(call(gateway, { path: '/api/v1/offers/12' })).rejects.toThrow(/GET \/api\/v1\/offers\/\{id\} answered 404 .*\n {2}at \/ \(.*\): required must have required property 'errors'/);
  });

  it('fails JSON that does not parse, when the answer says it is JSON', async () => {
    answerWith('{"status":', 200);
    await expect(call(gateway, { path: '/api/v1/offers/12' })).rejects.toThrow('the answer says it is JSON but does not parse');
  });
});

describe('answers the document describes, and answers that are not JSON', () => {
  it('passes a record and a list as documented, and the error envelope', async () => {
    answerWith(offerEnvelope({ id: 12, uuid: '8e1f5b0c-1d2e-4f3a-9b4c-5d6e7f8a9b0c', name: 'Offer', created_at: '2026-11-27T10:00:00+00:00' }));
    expect((await call(gateway, { path: '/api/v1/offers/12' })).body.offer.id).toBe(12);
    answerWith({ status: 200, errors: {}, offers: [], metadata: { root: 'offers', total_count: 0, page: 1, per_page: 25, total_pages: 0 } });
    expect((await call(gateway, { path: '/api/v1/offers' })).status).toBe(200);
    answerWith({ status: 404, errors: { base: ['Not found'] }, metadata: {} }, 404);
    expect((await call(gateway, { path: '/api/v1/offers/12' })).status).toBe(404);
  });

  it('skips CSV (and anything else that is not JSON)', async () => {
    answerWith('id,name\n1,x\n', 200, 'text/csv; charset=utf-8');
    expect((await call(gateway, { path: '/api/v1/offers.csv' })).text).toBe('id,name\n1,x\n');
  });
});

describe('checkAnswer and collect mode', () => {
  const offerRoute = routes.find((route) => route.method === 'GET' && route.path === '/api/v1/offers/{id}')!;
  const wrongTime = { statusCode: 200, headers: { 'content-type': 'application/json' }, body: JSON.stringify(offerEnvelope({ id: 1, created_at: 'yesterday' })) };

  it('checks formats a generated client parses (date-time)', () => {
    const mismatch = checkAnswer({ method: 'GET', template: offerRoute.path, url: '/api/v1/offers/1', status: 200, contentType: 'application/json', body: wrongTime.body });
    expect(mismatch?.problems[0]).toMatch(/^at \/offer\/created_at \("yesterday"\): format must match format "date-time"/);
  });

  it('checks answers no route made against the error envelope', () => {
    expect(checkAnswer({ method: 'GET', template: undefined, url: '/nowhere', status: 404, contentType: 'application/json', body: '{"status":404,"errors":{"base":["Not found"]}}' })).toBeUndefined();
    expect(checkAnswer({ method: 'GET', template: undefined, url: '/nowhere', status: 404, contentType: 'application/json', body: '{"status":"404","errors":{}}' })?.operation).toBe('GET /nowhere');
  });

  it('in collect mode writes the mismatch to the file and fails nothing; off checks nothing', () => {
    const file = join(mkdtempSync(join(tmpdir(), 'oas-')), 'mismatches.jsonl');
    vi.stubEnv('OPENAPI_CONFORMANCE', 'collect');
    vi.stubEnv('OPENAPI_CONFORMANCE_FILE', file);
    try {
      const reported: Mismatch[] = [];
      conformanceObserver((mismatch) => reported.push(mismatch), () => expect.getState().testPath)({ route: offerRoute, method: 'GET', url: '/api/v1/offers/1', result: wrongTime });
      expect(reported).toEqual([]);
      const written = readFileSync(file, 'utf8').trim().split('\n').map((line) => JSON.parse(line));
      expect(written).toEqual([expect.objectContaining({ operation: 'GET /api/v1/offers/{id}', status: 200, test: expect.stringContaining('openapi-conformance.test.ts') })]);
      vi.stubEnv('OPENAPI_CONFORMANCE', 'off');
      conformanceObserver((mismatch) => reported.push(mismatch))({ route: offerRoute, method: 'GET', url: '/api/v1/offers/1', result: wrongTime });
      expect(reported).toEqual([]);
    } finally {
      vi.stubEnv('OPENAPI_CONFORMANCE', 'fail');
    }
  });
});
