import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { basicAuthorization, createTestCompany, createTestUser, type TestCompany } from '../fixtures/company.js';
import { call, startTestGateway, type TestGateway } from '../fixtures/gateway.js';

let gateway: TestGateway;
let company: TestCompany;

beforeAll(async () => {
  gateway = await startTestGateway();
  company = await createTestCompany('auth');
});
afterAll(async () => {
  await gateway.close();
});

describe('authentication', () => {
  it('accepts the company key pair', async () => {
    const reply = await call(gateway, { path: '/api/v1/subscriptions', authorization: company.authorization });
    expect(reply.status).toBe(200);
  });

  it.each([
    ['no header', undefined],
    ['a wrong private key', () => basicAuthorization({ publicKey: company.keyPair.publicKey, privateKey: 'f'.repeat(64) })],
    ['an unknown public key', () => basicAuthorization({ publicKey: '0'.repeat(32), privateKey: company.keyPair.privateKey })],
    ['a malformed header', () => 'Basic not-base64-credentials'],
    ['another scheme', () => `Bearer ${company.keyPair.privateKey}`],
  ])('answers 401 with %s', async (_label, header) => {
    const reply = await call(gateway, { path: '/api/v1/subscriptions', authorization: typeof header === 'function' ? header() : header });
    expect(reply.status).toBe(401);
    expect(reply.body).toEqual({ status: 401, errors: { base: ['Missing or invalid credentials'] }, metadata: {} });
  });

  it('accepts a per-user auth_token in the query string or body, scoped to the user\'s company', async () => {
    const user = await createTestUser(company.id);
    const created = await call(gateway, {
      method: 'POST',
      path: '/api/v1/subscriptions',
      json: { auth_token: user.authToken, target_url: 'https://example.com/x', event: 'new_call' },
    });
    expect(created.status).toBe(200);
    const listed = await call(gateway, { path: `/api/v1/subscriptions?auth_token=${user.authToken}`, authorization: undefined });
    expect(listed.status).toBe(200);
    expect(listed.body.subscriptions.map((s: any) => s.id)).toContain(created.body.subscription.id);
    // The same record through the company's key pair: the token acted for this company.
    const shown = await call(gateway, { path: `/api/v1/subscriptions/${created.body.subscription.id}`, authorization: company.authorization });
    expect(shown.status).toBe(200);
  });

  it('answers 401 for an unknown auth_token', async () => {
    const reply = await call(gateway, { path: `/api/v1/subscriptions?auth_token=${'a'.repeat(64)}` });
    expect(reply.status).toBe(401);
  });

  it('does not let a wrong Basic header fall back to an auth_token', async () => {
    const user = await createTestUser(company.id);
    const reply = await call(gateway, {
      path: `/api/v1/subscriptions?auth_token=${user.authToken}`,
      authorization: basicAuthorization({ publicKey: company.keyPair.publicKey, privateKey: 'bad' }),
    });
    expect(reply.status).toBe(401);
  });
});
