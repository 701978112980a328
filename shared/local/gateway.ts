import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { handlerModules } from '../../functions/index.js';
import { errorEnvelope } from '../http/envelope.js';
import { unmatchedResponse } from '../http/fallback.js';
import { jsonResponse } from '../http/middleware/responses.js';
import { redactUrl } from '../http/redact.js';
import type { ApiEvent, ApiResponse } from '../http/request.js';
import { matchRoute } from '../http/route-match.js';
import type { RouteDefinition } from '../http/route-definition.js';
import { routes } from '../http/routes.js';
import { logger } from '../logger.js';
import { buildApiEvent, buildLambdaContext } from './lambda-event.js';

/**
 * The local stand-in for API Gateway: serves exactly the route table, turns each request into
 * the payload-2.0 event AWS would send, invokes the route group's handler and writes its result.
 */
type Handler = (event: ApiEvent, context: ReturnType<typeof buildLambdaContext>) => Promise<ApiResponse>;

const loaded = new Map<string, Promise<Handler>>();

function loadHandler(group: keyof typeof handlerModules): Promise<Handler> {
  let handler = loaded.get(group);
  if (!handler) {
    handler = handlerModules[group]().then((module) => module.handler as unknown as Handler);
    loaded.set(group, handler);
  }
  return handler;
}

/** API Gateway refuses payloads over 10 MB; the local gateway does the same. */
export const MAX_BODY_BYTES = 10 * 1024 * 1024;

class PayloadTooLarge extends Error {}

async function readBody(request: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY_BYTES) throw new PayloadTooLarge();
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

function writeResponse(response: ServerResponse, result: ApiResponse): void {
  const headers: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(result.headers ?? {})) headers[name] = String(value);
  if (result.cookies?.length) headers['set-cookie'] = result.cookies;
  const body = result.body ?? '';
  response.writeHead(result.statusCode ?? 200, headers);
  response.end(result.isBase64Encoded ? Buffer.from(body, 'base64') : body);
}

/**
 * Sees every answer before it is written, with the route that made it (none when no route
 * matched). The tests check each answer against the OpenAPI document through it
 * (test/fixtures/openapi-conformance.ts); `npm start` passes none.
 */
export type AnswerObserver = (answer: { route: RouteDefinition | undefined; method: string; url: string; result: ApiResponse }) => void;

async function serve(request: IncomingMessage, response: ServerResponse, observe: AnswerObserver): Promise<number> {
  const url = new URL(request.url ?? '/', 'http://localhost');
  const method = request.method ?? 'GET';
  const match = matchRoute(method, url.pathname, routes);
  if (match.kind !== 'matched') {
    const result = unmatchedResponse(match, request.method ?? 'GET', url.pathname);
    observe({ route: undefined, method, url: request.url ?? '/', result });
    writeResponse(response, result);
    return result.statusCode ?? 404;
  }
  let body: Buffer;
  try {
    body = await readBody(request);
  } catch (error) {
    if (!(error instanceof PayloadTooLarge)) throw error;
    const refused = jsonResponse(413, errorEnvelope(413, { body: [`is larger than ${MAX_BODY_BYTES} bytes`] }));
    observe({ route: match.route, method, url: request.url ?? '/', result: refused });
    writeResponse(response, { ...refused, headers: { ...refused.headers, connection: 'close' } });
    request.resume();
    return 413;
  }
  const event = buildApiEvent(
    {
      method: request.method ?? 'GET',
      url: request.url ?? '/',
      headers: request.headers,
      body,
      sourceIp: request.socket.remoteAddress ?? '127.0.0.1',
    },
    match.route,
    match.pathParameters,
  );
  const handler = await loadHandler(match.route.group);
  const result = await handler(event, buildLambdaContext(match.route.group, event.requestContext.requestId));
  observe({ route: match.route, method, url: request.url ?? '/', result });
  writeResponse(response, result);
  return result.statusCode ?? 200;
}

/** One line per request, written by whoever runs the gateway (stdout for `npm start`). */
export type RequestLogger = (line: { method: string; path: string; status: number; ms: number }) => void;

/**
 * A request Node refuses before it reaches the gateway (a request line or headers over the
 * limit, a malformed request) still gets the error envelope, as API Gateway answers with its own.
 */
function refuseClient(error: NodeJS.ErrnoException & { bytesParsed?: number }, socket: import('node:stream').Duplex): void {
  if (!socket.writable) {
    socket.destroy();
    return;
  }
  const status = error.code === 'HPE_HEADER_OVERFLOW' ? 431 : 400;
  const body = JSON.stringify(errorEnvelope(status, { base: [status === 431 ? 'Request line or headers are too large' : 'Malformed request'] }));
  socket.end(`HTTP/1.1 ${status} ${status === 431 ? 'Request Header Fields Too Large' : 'Bad Request'}\r\ncontent-type: application/json; charset=utf-8\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`);
}

export function createGateway(logRequest: RequestLogger = () => undefined, observe: AnswerObserver = () => undefined): Server {
  const server = createServer((request, response) => {
    const started = performance.now();
    serve(request, response, observe)
      .then((status) => {
        logRequest({ method: request.method ?? 'GET', path: redactUrl(request.url ?? '/'), status, ms: Math.round(performance.now() - started) });
      })
      .catch((error: unknown) => {
        logger.error('gateway failure', { error });
        if (!response.headersSent) response.writeHead(502, { 'content-type': 'application/json' });
        response.end(JSON.stringify({ status: 502, errors: { base: ['Bad gateway'] }, metadata: {} }));
      });
  });
  server.on('clientError', refuseClient);
  return server;
}

/** Starts the gateway; port 0 picks a free one. */
export async function listen(server: Server, port: number, host = '127.0.0.1'): Promise<number> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  return (server.address() as AddressInfo).port;
}
