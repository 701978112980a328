import { afterEach, describe, expect, it } from 'vitest';
import { mockClient } from 'aws-sdk-client-mock';
import { InvokeCommand, LambdaClient } from '@aws-sdk/client-lambda';
import { createFallbackHandler } from '../../functions/fallback/handler.js';
import { LambdaRouteForwarding } from '../../shared/adapters/aws/lambda-route-forwarding.js';
import { createRouteForwarding } from '../../shared/adapters/route-forwarding.js';
import { canonicalPath } from '../../shared/http/fallback.js';
import type { ApiEvent, ApiResponse } from '../../shared/http/request.js';
import type { RouteGroup } from '../../shared/http/route-groups.js';

const lambda = mockClient(LambdaClient);
afterEach(() => lambda.reset());

/** A `$default` event as API Gateway sends it for a path no route matched exactly. */
function defaultEvent(method: string, rawPath: string, rawQueryString = ''): ApiEvent {
  return {
    version: '2.0',
    routeKey: '$default',
    rawPath,
    rawQueryString,
    headers: { authorization: 'Basic eA==' },
    requestContext: { routeKey: '$default', http: { method, path: rawPath, protocol: 'HTTP/1.1', sourceIp: '203.0.113.9', userAgent: 'curl' }, stage: '$default' },
    isBase64Encoded: false,
  } as unknown as ApiEvent;
}

describe('canonicalPath', () => {
  it('drops a trailing slash and empty segments, as the route matcher reads them', () => {
    expect(canonicalPath('/api/v1/calls/stats/')).toBe('/api/v1/calls/stats');
    expect(canonicalPath('/api//v1/calls/12/')).toBe('/api/v1/calls/12');
    expect(canonicalPath('/api/v1/calls/stats')).toBe('/api/v1/calls/stats');
    expect(canonicalPath('/')).toBe('/');
  });
});

describe('the fallback ($default) with forwarding', () => {
  const forwarded: Array<{ group: RouteGroup; event: ApiEvent }> = [];
  const answer: ApiResponse = { statusCode: 200, headers: { 'content-type': 'application/json' }, body: '{"status":200}' };
  const fallback = createFallbackHandler({ forward: async (group, event) => (forwarded.push({ group, event }), answer) });

  it("hands a route's path with a trailing slash to the route's function as the route's own event", async () => {
    const response = await fallback(defaultEvent('GET', '/api/v1/calls/stats/', 'group_by=status&stat=count'));
    expect(response).toBe(answer);
    expect(forwarded).toHaveLength(1);
    const { group, event } = forwarded[0]!;
    expect(group).toBe('calls');
    expect(event).toMatchObject({ routeKey: 'GET /api/v1/calls/stats', rawPath: '/api/v1/calls/stats', rawQueryString: 'group_by=status&stat=count', headers: { authorization: 'Basic eA==' } });
    expect(event.requestContext).toMatchObject({ routeKey: 'GET /api/v1/calls/stats', http: { method: 'GET', path: '/api/v1/calls/stats', sourceIp: '203.0.113.9' } });
    expect(event.pathParameters).toBeUndefined();
    await fallback(defaultEvent('GET', '/api/v1/calls/42/'));
    expect(forwarded[1]!.event).toMatchObject({ routeKey: 'GET /api/v1/calls/{id}', pathParameters: { id: '42' } });
  });

  it('forwards nothing else: unknown paths, other methods, and a route path written exactly stay 404/405', async () => {
    forwarded.length = 0;
    expect((await fallback(defaultEvent('GET', '/api/v1/nothing_here/'))).statusCode).toBe(404);
    expect((await fallback(defaultEvent('PATCH', '/api/v1/calls/stats/'))).statusCode).toBe(405);
    // Exactly a route's path: API Gateway only sends it here when the stage has no routes (apiRoutes=none).
    expect((await fallback(defaultEvent('GET', '/api/v1/calls/stats'))).statusCode).toBe(404);
    // Partner routes keep their tighter throttle: a slashed ping is not let past it.
    expect((await fallback(defaultEvent('POST', '/api/v1/inbound_webhooks/ping/acme/'))).statusCode).toBe(404);
    expect((await fallback(defaultEvent('GET', '/api/v1/numbers.json/'))).statusCode).toBe(404);
    expect(forwarded).toEqual([]);
    // Without forwarding (the local gateway, tests), a trailing slash reaching $default is a 404 too.
    expect((await createFallbackHandler(undefined)(defaultEvent('GET', '/api/v1/calls/stats/'))).statusCode).toBe(404);
  });

  it('answers the error envelope when the forwarding fails', async () => {
    const failing = createFallbackHandler({ forward: () => Promise.reject(new Error('boom')) });
    const response = await failing(defaultEvent('GET', '/api/v1/calls/stats/'));
    expect(response.statusCode).toBe(500);
    expect(JSON.parse(String(response.body))).toMatchObject({ status: 500, errors: { base: ['Internal server error'] } });
  });
});

describe('Lambda route forwarding adapter', () => {
  const adapter = () => new LambdaRouteForwarding(new LambdaClient({ region: 'us-east-1' }), { calls: 'svc-CallsFunction' });

  it("invokes the group's function synchronously with the event and returns its answer", async () => {
    const answer = { statusCode: 200, body: '{"status":200}' };
    lambda.on(InvokeCommand).resolves({ StatusCode: 200, Payload: new TextEncoder().encode(JSON.stringify(answer)) as never });
    const event = defaultEvent('GET', '/api/v1/calls/stats');
    await expect(adapter().forward('calls', event)).resolves.toEqual(answer);
    const input = lambda.commandCalls(InvokeCommand)[0]!.args[0].input;
    expect(input.FunctionName).toBe('svc-CallsFunction');
    expect(input.InvocationType).toBeUndefined(); // RequestResponse
    expect(JSON.parse(new TextDecoder().decode(input.Payload as Uint8Array))).toEqual(event);
  });

  it("fails on the function's error and on a group it was not given", async () => {
    lambda.on(InvokeCommand).resolves({ StatusCode: 200, FunctionError: 'Unhandled', Payload: new TextEncoder().encode('{}') as never });
    await expect(adapter().forward('calls', defaultEvent('GET', '/x'))).rejects.toThrow(/calls function failed \(Unhandled\)/);
    await expect(adapter().forward('leads', defaultEvent('GET', '/x'))).rejects.toThrow(/No function is named for route group leads/);
  });

  it('is configured from ROUTE_FUNCTIONS, and is none without it', () => {
    expect(createRouteForwarding({})).toBeUndefined();
    expect(createRouteForwarding({ ROUTE_FUNCTIONS: '{"calls":"svc-CallsFunction"}' })).toBeInstanceOf(LambdaRouteForwarding);
    expect(() => createRouteForwarding({ ROUTE_FUNCTIONS: '["svc"]' })).toThrow(/ROUTE_FUNCTIONS must be a JSON object/);
  });
});
