import { randomUUID } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import type { Context } from 'aws-lambda';
import type { ApiEvent } from '../http/request.js';
import { routeKey, type RouteDefinition } from '../http/route-definition.js';

/**
 * Builds the API Gateway HTTP API (payload 2.0) event that AWS would send for a request, so the
 * handlers cannot tell the local gateway from API Gateway.
 */
export interface IncomingRequest {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: Buffer;
  sourceIp: string;
}

function headerMap(headers: IncomingHttpHeaders): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined || name === 'cookie') continue;
    out[name.toLowerCase()] = Array.isArray(value) ? value.join(',') : value;
  }
  return out;
}

/** API Gateway joins repeated query keys with commas. */
function queryMap(search: URLSearchParams): Record<string, string> | undefined {
  const out: Record<string, string> = {};
  for (const [name, value] of search) out[name] = name in out ? `${out[name]},${value}` : value;
  return Object.keys(out).length ? out : undefined;
}

const TEXT_TYPES = /^(application\/(json|x-www-form-urlencoded|xml|[\w.+-]+\+json)|text\/)/i;

export function buildApiEvent(request: IncomingRequest, route: RouteDefinition, pathParameters: Record<string, string>): ApiEvent {
  const url = new URL(request.url, 'http://localhost');
  // API Gateway adds X-Forwarded-Proto; the local gateway serves plain http.
  const headers: Record<string, string> = { 'x-forwarded-proto': 'http', ...headerMap(request.headers) };
  const now = new Date();
  const isText = request.body.length === 0 || TEXT_TYPES.test(headers['content-type'] ?? 'text/plain');
  const cookieHeader = request.headers.cookie;
  return {
    version: '2.0',
    routeKey: routeKey(route),
    rawPath: url.pathname,
    rawQueryString: url.search.replace(/^\?/, ''),
    cookies: cookieHeader ? cookieHeader.split(';').map((cookie) => cookie.trim()) : undefined,
    headers,
    queryStringParameters: queryMap(url.searchParams),
    pathParameters: Object.keys(pathParameters).length ? pathParameters : undefined,
    requestContext: {
      accountId: 'local',
      apiId: 'local',
      domainName: headers.host ?? 'localhost',
      domainPrefix: 'localhost',
      http: {
        method: request.method.toUpperCase(),
        path: url.pathname,
        protocol: 'HTTP/1.1',
        sourceIp: request.sourceIp,
        userAgent: headers['user-agent'] ?? '',
      },
      requestId: randomUUID(),
      routeKey: routeKey(route),
      stage: '$default',
      time: now.toISOString(),
      timeEpoch: now.getTime(),
    },
    body: request.body.length ? (isText ? request.body.toString('utf8') : request.body.toString('base64')) : undefined,
    isBase64Encoded: !isText,
  };
}

/** A Lambda context with the fields handlers read. */
export function buildLambdaContext(functionName: string, requestId: string): Context {
  const deadline = Date.now() + 30_000;
  return {
    callbackWaitsForEmptyEventLoop: false,
    functionName,
    functionVersion: '$LATEST',
    invokedFunctionArn: `arn:aws:lambda:local:000000000000:function:${functionName}`,
    memoryLimitInMB: '512',
    awsRequestId: requestId,
    logGroupName: `/aws/lambda/${functionName}`,
    logStreamName: 'local',
    getRemainingTimeInMillis: () => Math.max(0, deadline - Date.now()),
    done: () => undefined,
    fail: () => undefined,
    succeed: () => undefined,
  };
}
