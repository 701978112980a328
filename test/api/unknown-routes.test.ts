import { describe, expect, it } from 'vitest';
import { handler as fallback } from '../../functions/fallback/handler.js';
import { createTestCompany } from '../fixtures/company.js';
import { expect404, expect405 } from '../fixtures/envelope.js';
import { call, useGateway } from '../fixtures/gateway.js';
import type { ApiEvent } from '../../shared/http/request.js';

const gateway = useGateway();

describe('an unknown route is told apart from an unknown record', () => {
  it('answers a path no route has with 404 naming the method and path', async () => {
    const company = await createTestCompany('routes');
    const reply = await call(gateway, { path: '/api/v1/ofers/12', authorization: company.authorization });
    expect(reply.status).toBe(404);
    expect(reply.body).toEqual({ status: 404, errors: { base: ['No route matches GET /api/v1/ofers/12'] }, metadata: {} });
  });

  it('keeps Not found for a missing record of a known route', async () => {
    const company = await createTestCompany('routes');
    expect404(await call(gateway, { path: '/api/v1/offers/999999', authorization: company.authorization }));
  });

  it('answers a known path with a method it does not serve 405 with Allow', async () => {
    const company = await createTestCompany('routes');
    expect405(await call(gateway, { method: 'PATCH', path: '/api/v1/offers', authorization: company.authorization }), 'GET, POST');
  });

  it('bounds the echoed path of a hostile request', async () => {
    const reply = await call(gateway, { path: `/api/v1/${'x'.repeat(5000)}` });
    expect(reply.status).toBe(404);
    const [message] = reply.body.errors.base as string[];
    expect(message!.length).toBeLessThan(260);
    expect(message!.startsWith('No route matches GET /api/v1/xxx')).toBe(true);
  });

  it("gives API Gateway's $default route the same answer", async () => {
    const response = await fallback({ rawPath: '/api/v1/nothing_here', requestContext: { http: { method: 'DELETE' } } } as unknown as ApiEvent);
    expect(response.statusCode).toBe(404);
    expect(JSON.parse(String(response.body)).errors.base).toEqual(['No route matches DELETE /api/v1/nothing_here']);
  });
});
