import { describe, expect, it, vi } from 'vitest';
import { createRouteGroupHandler } from '../../shared/http/handler.js';
import type { Operation } from '../../shared/http/request.js';
import { routes, routesOfGroup } from '../../shared/http/routes.js';
import { buildApiEvent, buildLambdaContext } from '../../shared/local/lambda-event.js';
import { createTestCompany, createTestUser } from '../fixtures/company.js';
import { call, useGateway } from '../fixtures/gateway.js';
import { useCapturedLogs } from '../fixtures/log-capture.js';
import { callFields, carrierPost, newCallSid, VOICE_BASE } from '../fixtures/voice.js';

// The service logs at INFO in this file (before any module makes the logger).
vi.hoisted(() => {
  process.env.LOG_LEVEL = 'info';
});

const gateway = useGateway();
const logs = useCapturedLogs();

const requestLines = () => logs.lines().filter((line) => line.message === 'request');

describe('the request log line', () => {
  it('is written once per request with route, status, latency, company and the Lambda context, and nothing secret', async () => {
    const company = await createTestCompany('request-log');
    const user = await createTestUser(company.id);
    logs.clear();
    const reply = await call(gateway, {
      path: `/api/v1/subscriptions?per_page=7&auth_token=${user.authToken}&lead_token=lead-secret-1`,
      authorization: company.authorization,
    });
    expect(reply.status).toBe(200);
    const lines = requestLines();
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({
      level: 'INFO',
      service: 'call-tracking',
      route: 'GET /api/v1/subscriptions',
      status: 200,
      company_id: company.id,
      latency_ms: expect.any(Number),
      function_name: 'subscriptions',
      function_request_id: expect.any(String),
      cold_start: expect.any(Boolean),
    });
    const written = logs.text();
    for (const secret of [company.keyPair.privateKey, company.authorization, user.authToken, 'lead-secret-1', 'per_page']) {
      expect(written).not.toContain(secret);
    }
  });

  it('names the route template, never the path\'s values, and no company when the credentials were refused', async () => {
    logs.clear();
    const reply = await call(gateway, { path: '/api/v1/subscriptions/987654321', authorization: 'Basic bm9ib2R5Om5vdGhpbmc=' });
    expect(reply.status).toBe(401);
    const [line] = requestLines();
    expect(line).toMatchObject({ route: 'GET /api/v1/subscriptions/{id}', status: 401 });
    expect(line).not.toHaveProperty('company_id');
    expect(logs.text()).not.toContain('987654321');
    expect(logs.text()).not.toContain('bm9ib2R5Om5vdGhpbmc=');
  });

  it('is written by every route group, the carrier\'s webhooks included, without the caller or the signature', async () => {
    logs.clear();
    const reply = await carrierPost(gateway, `${VOICE_BASE}/incoming`, { ...callFields(newCallSid(), '+14155559876', '+13125550100'), CallStatus: 'ringing' }, 'forged-signature');
    expect(reply.status).toBe(403);
    const [line] = requestLines();
    expect(line).toMatchObject({ route: 'POST /api/v1/voice/twilio/incoming', status: 403, function_name: 'voice' });
    expect(line).not.toHaveProperty('company_id');
    expect(logs.text()).not.toContain('4155559876');
    expect(logs.text()).not.toContain('forged-signature');
  });

  it('carries the status sent for a failure, after the error line with its stack', async () => {
    const company = await createTestCompany('request-log');
    const listRoute = routes.find((route) => route.operation === 'subscriptions.list')!;
    const failing: Operation = async () => {
      throw new Error('the table is on fire');
    };
    const operations = Object.fromEntries(routesOfGroup('subscriptions').map((route) => [route.operation, failing]));
    const handler = createRouteGroupHandler('subscriptions', routesOfGroup('subscriptions'), operations);
    const event = buildApiEvent({ method: 'GET', url: listRoute.path, headers: { authorization: company.authorization }, body: Buffer.alloc(0), sourceIp: '127.0.0.1' }, listRoute, {});
    logs.clear();
    const result = await handler(event, buildLambdaContext('subscriptions', 'req-log-500'));
    expect(result.statusCode).toBe(500);
    const lines = logs.lines();
    const failure = lines.find((line) => line.message === 'request failed');
    expect(failure).toMatchObject({ level: 'ERROR', route: 'GET /api/v1/subscriptions', function_request_id: 'req-log-500' });
    expect(failure!.error).toMatchObject({ name: 'Error', message: 'the table is on fire', stack: expect.stringContaining('request-log.test.ts') });
    expect(requestLines()).toEqual([expect.objectContaining({ route: 'GET /api/v1/subscriptions', status: 500, company_id: company.id, function_request_id: 'req-log-500' })]);
    expect(lines.indexOf(failure!)).toBeLessThan(lines.findIndex((line) => line.message === 'request'));
  });
});
