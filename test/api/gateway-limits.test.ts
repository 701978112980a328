import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_BODY_BYTES } from '../../shared/local/gateway.js';
import { createTestCompany, type TestCompany } from '../fixtures/company.js';
import { call, startTestGateway, type TestGateway } from '../fixtures/gateway.js';

let gateway: TestGateway;
let company: TestCompany;
beforeAll(async () => {
  gateway = await startTestGateway();
  company = await createTestCompany('limits');
});
afterAll(async () => gateway.close());

describe('the local gateway', () => {
  it('refuses a body over API Gateway\'s 10 MB with 413, as API Gateway would', async () => {
    const reply = await call(gateway, {
      method: 'POST',
      path: '/api/v1/subscriptions',
      authorization: company.authorization,
      headers: { 'content-type': 'application/json' },
      form: `{"target_url":"https://example.com","event":"new_call","pad":"${'x'.repeat(MAX_BODY_BYTES)}"}`,
    });
    expect(reply.status).toBe(413);
    expect(reply.body).toEqual({ status: 413, errors: { body: [`is larger than ${MAX_BODY_BYTES} bytes`] }, metadata: {} });
    const list = await call(gateway, { path: '/api/v1/subscriptions', authorization: company.authorization });
    expect(list.body.subscriptions).toEqual([]);
  });
});
