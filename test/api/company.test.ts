import { beforeAll, describe, expect, it } from 'vitest';
import { createTestCompany, createTestUser, type TestCompany } from '../fixtures/company.js';
import { call, useGateway } from '../fixtures/gateway.js';

/** `GET /api/v1/company`: the caller's own company, whichever credential it uses. */
const gateway = useGateway();
let tokyo: TestCompany;
let other: TestCompany;

beforeAll(async () => {
  [tokyo, other] = await Promise.all([createTestCompany('company-tokyo', 'Asia/Tokyo'), createTestCompany('company-other')]);
});

describe('GET /api/v1/company', () => {
  it("answers the caller's company with its time zone in the record envelope", async () => {
    const reply = await call(gateway, { path: '/api/v1/company', authorization: tokyo.authorization });
    expect(reply.status).toBe(200);
    expect(reply.body).toMatchObject({ status: 200, errors: {}, metadata: { root: 'company' }, company: { id: tokyo.id, time_zone: 'Asia/Tokyo' } });
    expect(reply.body.company.name).toMatch(/^company-tokyo-/);
    expect(Object.keys(reply.body.company).sort()).toEqual(['id', 'name', 'time_zone']);
  });

  it("gives another company's credentials their own company", async () => {
    const reply = await call(gateway, { path: '/api/v1/company', authorization: other.authorization });
    expect(reply.status).toBe(200);
    expect(reply.body.company).toMatchObject({ id: other.id, time_zone: 'UTC' });
    expect(reply.body.company.name).toMatch(/^company-other-/);
  });

  it("answers a member's auth token with the member's company", async () => {
    const member = await createTestUser(tokyo.id, { admin: false });
    const reply = await call(gateway, { path: `/api/v1/company?auth_token=${member.authToken}` });
    expect(reply.status).toBe(200);
    expect(reply.body.company).toMatchObject({ id: tokyo.id, time_zone: 'Asia/Tokyo' });
  });
});
