import { describe, expect, it } from 'vitest';
import { createRouteGroupHandler } from '../../shared/http/handler.js';
import { ValidationError } from '../../shared/http/errors.js';
import type { Operation } from '../../shared/http/request.js';
import { routes, routesOfGroup } from '../../shared/http/routes.js';
import { buildApiEvent, buildLambdaContext } from '../../shared/local/lambda-event.js';
import { createTestCompany } from '../fixtures/company.js';

const listRoute = routes.find((route) => route.operation === 'subscriptions.list')!;

function handlerWith(list: Operation) {
  const ok: Operation = async () => ({ kind: 'record', root: 'x', record: {} });
  const operations = Object.fromEntries(routesOfGroup('subscriptions').map((route) => [route.operation, ok]));
  return createRouteGroupHandler('subscriptions', routesOfGroup('subscriptions'), { ...operations, 'subscriptions.list': list });
}

async function invoke(list: Operation, authorization: string) {
  const event = buildApiEvent(
    { method: 'GET', url: listRoute.path, headers: { authorization }, body: Buffer.alloc(0), sourceIp: '127.0.0.1' },
    listRoute,
    {},
  );
  const result = await handlerWith(list)(event, buildLambdaContext('subscriptions', 'req-123'));
  return { status: result.statusCode, body: JSON.parse(result.body ?? '{}') };
}

describe('error handler', () => {
  it('answers an unexpected error with a bare 500 and the request id, never the message or stack', async () => {
    const company = await createTestCompany('errors');
    const reply = await invoke(async () => {
      throw new Error('secret database detail');
    }, company.authorization);
    expect(reply.status).toBe(500);
    expect(reply.body).toEqual({ status: 500, errors: { base: ['Internal server error'] }, metadata: { request_id: 'req-123' } });
    expect(JSON.stringify(reply.body)).not.toContain('secret');
  });

  it('passes client errors through with their fields', async () => {
    const company = await createTestCompany('errors');
    const reply = await invoke(async () => {
      throw new ValidationError({ name: ['is required'] });
    }, company.authorization);
    expect(reply.status).toBe(422);
    expect(reply.body.errors).toEqual({ name: ['is required'] });
  });

  it('authenticates before the operation runs', async () => {
    let ran = false;
    const reply = await invoke(async () => {
      ran = true;
      return { kind: 'record', root: 'x', record: {} };
    }, 'Basic eDp5');
    expect(reply.status).toBe(401);
    expect(ran).toBe(false);
  });
});
