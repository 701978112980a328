import type { LookupAddress } from 'node:dns';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { NO_ALLOWED_CIDRS, parseAllowedCidrs } from '../../shared/outbound/address-policy.js';
import { DEFAULT_USER_AGENT, guardedLookup, sendOutbound, type ResolveAllAddresses } from '../../shared/outbound/send.js';

/** A local HTTP server that records every connection and request it sees. */
interface Recorder {
  server: http.Server;
  base: string;
  port: number;
  connections: number;
  requests: { method: string; url: string; headers: http.IncomingHttpHeaders; body: string }[];
}

async function startRecorder(answer: (request: http.IncomingMessage, response: http.ServerResponse) => void): Promise<Recorder> {
  const recorder = { connections: 0, requests: [] } as unknown as Recorder;
  recorder.server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      recorder.requests.push({
        method: request.method ?? '',
        url: request.url ?? '',
        headers: request.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      });
      answer(request, response);
    });
  });
  recorder.server.on('connection', () => (recorder.connections += 1));
  await new Promise<void>((resolve) => recorder.server.listen(0, '127.0.0.1', resolve));
  recorder.port = (recorder.server.address() as AddressInfo).port;
  recorder.base = `http://127.0.0.1:${recorder.port}`;
  return recorder;
}

async function stop(recorder: Recorder): Promise<void> {
  recorder.server.closeAllConnections();
  await new Promise<void>((resolve) => recorder.server.close(() => resolve()));
}

const loopbackAllowed = parseAllowedCidrs('127.0.0.0/8');
const ONE_MEGABYTE = 'a'.repeat(1_000_000);

/** A resolver that answers every name with the given addresses, as a rebinding DNS server would. */
function resolvingTo(...addresses: string[]): ResolveAllAddresses {
  const answer: LookupAddress[] = addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
  return (_hostname, _options, callback) => callback(null, answer);
}

let receiver: Recorder;
let redirectTarget: Recorder;
let closedPort: number;

beforeAll(async () => {
  redirectTarget = await startRecorder((_request, response) => response.end('landed'));
  receiver = await startRecorder((request, response) => {
    switch (request.url) {
      case '/fail':
        return response.writeHead(500).end('boom');
      case '/redirect':
        return response.writeHead(302, { Location: `${redirectTarget.base}/landing` }).end();
      case '/big':
        return response.writeHead(200).end(ONE_MEGABYTE);
      case '/accents':
        return response.writeHead(200).end('éééé');
      case '/silent':
        return; // never answers
      default:
        return response.writeHead(201, { 'Content-Type': 'text/plain' }).end('thanks');
    }
  });
  // A port nothing listens on: bound once, then released.
  const closed = await startRecorder(() => undefined);
  closedPort = closed.port;
  await stop(closed);
});

afterAll(async () => {
  await stop(receiver);
  await stop(redirectTarget);
});

beforeEach(() => {
  for (const recorder of [receiver, redirectTarget]) {
    recorder.connections = 0;
    recorder.requests = [];
  }
});

describe('sendOutbound through the SSRF guard', () => {
  it('refuses a loopback receiver when nothing is allowed, without connecting', async () => {
    const result = await sendOutbound({ url: `${receiver.base}/hook`, method: 'POST', headers: {}, body: '{}' }, { allowed: NO_ALLOWED_CIDRS });
    expect(result).toMatchObject({ ok: false, status: null, refused: true, responseExcerpt: '', error: 'refused: 127.0.0.1 is a loopback address' });
    expect(receiver.connections).toBe(0);
  });

  it('refuses literal addresses the URL parser normalises, and IPv6 literals', async () => {
    const decimal = await sendOutbound({ url: `http://2130706433:${receiver.port}/`, method: 'GET', headers: {} }, { allowed: NO_ALLOWED_CIDRS });
    expect(decimal.error).toBe('refused: 127.0.0.1 is a loopback address');
    const mapped = await sendOutbound({ url: `http://[::ffff:127.0.0.1]:${receiver.port}/`, method: 'GET', headers: {} }, { allowed: NO_ALLOWED_CIDRS });
    expect(mapped).toMatchObject({ refused: true, error: 'refused: ::ffff:7f00:1 (IPv4-mapped 127.0.0.1) is a loopback address' });
    const ipv6 = await sendOutbound({ url: `http://[::1]:${receiver.port}/`, method: 'GET', headers: {} }, { allowed: loopbackAllowed });
    expect(ipv6).toMatchObject({ refused: true, error: 'refused: ::1 is a loopback address' });
    expect(receiver.connections).toBe(0);
  });

  it('delivers to an allowed receiver: method, headers and body arrive, status and excerpt come back', async () => {
    const body = JSON.stringify({ event: 'call_ended', caller: 'Zoë' });
    const result = await sendOutbound(
      { url: `${receiver.base}/hook?attempt=1`, method: 'PUT', headers: { 'Content-Type': 'application/json', 'X-Signature': 'sig-1' }, body },
      { allowed: loopbackAllowed },
    );
    expect(result).toMatchObject({ ok: true, status: 201, responseExcerpt: 'thanks', error: null, refused: false });
    expect(Number.isInteger(result.durationMs) && result.durationMs >= 0).toBe(true);
    expect(receiver.requests).toHaveLength(1);
    const [seen] = receiver.requests;
    expect(seen).toMatchObject({ method: 'PUT', url: '/hook?attempt=1', body });
    expect(seen!.headers).toMatchObject({
      'content-type': 'application/json',
      'x-signature': 'sig-1',
      'user-agent': DEFAULT_USER_AGENT,
      'content-length': String(Buffer.byteLength(body)),
    });
  });

  it("keeps the caller's User-Agent and sends the body's true length", async () => {
    await sendOutbound(
      { url: `${receiver.base}/hook`, method: 'POST', headers: { 'user-agent': 'partner/2', 'Content-Length': '1' }, body: 'ééé' },
      { allowed: loopbackAllowed },
    );
    expect(receiver.requests[0]!.headers['user-agent']).toBe('partner/2');
    expect(receiver.requests[0]!.headers['content-length']).toBe('6');
    expect(receiver.requests[0]!.body).toBe('ééé');
  });

  it('refuses localhost at connect time when nothing is allowed', async () => {
    const result = await sendOutbound({ url: `http://localhost:${receiver.port}/hook`, method: 'POST', headers: {}, body: '{}' }, { allowed: NO_ALLOWED_CIDRS });
    expect(result.refused).toBe(true);
    expect(result.error).toMatch(/^refused: (127\.0\.0\.1|::1) is a loopback address$/);
    expect(receiver.connections).toBe(0);
  });

  it('judges the addresses a name resolves to when connecting, not when it was validated (DNS rebinding)', async () => {
    const url = `http://rebind.example:${receiver.port}/hook`;
    const rebound = await sendOutbound({ url, method: 'POST', headers: {}, body: '{}' }, { allowed: loopbackAllowed, lookup: resolvingTo('10.0.0.1') });
    expect(rebound).toMatchObject({ refused: true, status: null, error: 'refused: 10.0.0.1 is a private address' });
    const metadata = await sendOutbound({ url, method: 'GET', headers: {} }, { allowed: NO_ALLOWED_CIDRS, lookup: resolvingTo('169.254.169.254') });
    expect(metadata.error).toBe('refused: 169.254.169.254 is a link-local address');
    // One bad address among good ones is enough: the socket might pick either.
    const mixed = await sendOutbound({ url, method: 'GET', headers: {} }, { allowed: loopbackAllowed, lookup: resolvingTo('127.0.0.1', '10.0.0.1') });
    expect(mixed.error).toBe('refused: 10.0.0.1 is a private address');
    expect(receiver.connections).toBe(0);
  });

  it('connects to the very address the guard approved', async () => {
    const result = await sendOutbound(
      { url: `http://rebind.example:${receiver.port}/hook`, method: 'POST', headers: {}, body: 'x' },
      { allowed: loopbackAllowed, lookup: resolvingTo('127.0.0.1') },
    );
    expect(result).toMatchObject({ ok: true, status: 201, refused: false });
    expect(receiver.requests[0]!.headers.host).toBe(`rebind.example:${receiver.port}`);
  });

  it('does not follow a redirect', async () => {
    const result = await sendOutbound({ url: `${receiver.base}/redirect`, method: 'POST', headers: {}, body: '{}' }, { allowed: loopbackAllowed });
    expect(result).toMatchObject({ ok: false, status: 302, error: null, refused: false });
    expect(receiver.requests).toHaveLength(1);
    expect(redirectTarget.connections).toBe(0);
  });

  it('reports a 500 as a response, not an error', async () => {
    const result = await sendOutbound({ url: `${receiver.base}/fail`, method: 'POST', headers: {}, body: '{}' }, { allowed: loopbackAllowed });
    expect(result).toMatchObject({ ok: false, status: 500, error: null, responseExcerpt: 'boom', refused: false });
  });

  it('keeps only the first bytes of a large response', async () => {
    const byDefault = await sendOutbound({ url: `${receiver.base}/big`, method: 'GET', headers: {} }, { allowed: loopbackAllowed });
    expect(byDefault).toMatchObject({ ok: true, status: 200, error: null });
    expect(byDefault.responseExcerpt).toBe('a'.repeat(1024));
    const small = await sendOutbound({ url: `${receiver.base}/big`, method: 'GET', headers: {}, maxResponseBytes: 10 }, { allowed: loopbackAllowed });
    expect(small.responseExcerpt).toBe('a'.repeat(10));
    const none = await sendOutbound({ url: `${receiver.base}/big`, method: 'GET', headers: {}, maxResponseBytes: 0 }, { allowed: loopbackAllowed });
    expect(none).toMatchObject({ status: 200, responseExcerpt: '' });
  });

  it('drops a character the byte limit cuts in half', async () => {
    const result = await sendOutbound({ url: `${receiver.base}/accents`, method: 'GET', headers: {}, maxResponseBytes: 5 }, { allowed: loopbackAllowed });
    expect(result.responseExcerpt).toBe('éé');
  });

  it('gives up on a receiver that never answers', async () => {
    const result = await sendOutbound({ url: `${receiver.base}/silent`, method: 'POST', headers: {}, body: '{}', timeoutMs: 200 }, { allowed: loopbackAllowed });
    expect(result).toMatchObject({ ok: false, status: null, error: 'timeout after 200 ms', refused: false });
    expect(receiver.requests).toHaveLength(1);
  });

  it('reports a refused connection as a connection error', async () => {
    const result = await sendOutbound({ url: `http://127.0.0.1:${closedPort}/`, method: 'POST', headers: {}, body: '{}' }, { allowed: loopbackAllowed });
    expect(result).toMatchObject({ ok: false, status: null, refused: false, error: 'connection error: ECONNREFUSED' });
  });

  it('answers bad input with a result instead of throwing', async () => {
    const allowed = { allowed: loopbackAllowed };
    expect((await sendOutbound({ url: 'not a url', method: 'GET', headers: {} }, allowed)).error).toBe('invalid url');
    expect((await sendOutbound({ url: 'ftp://127.0.0.1/', method: 'GET', headers: {} }, allowed)).error).toBe('invalid url: ftp: is not http or https');
    const badHeader = await sendOutbound({ url: `${receiver.base}/hook`, method: 'GET', headers: { 'X-Evil': 'a\r\nInjected: yes' } }, allowed);
    expect(badHeader.error).toMatch(/^invalid request: /);
    const failingLookup: ResolveAllAddresses = (_hostname, _options, callback) =>
      callback(Object.assign(new Error('getaddrinfo ENOTFOUND'), { code: 'ENOTFOUND' }), []);
    const unknownName = await sendOutbound({ url: 'http://nowhere.example/', method: 'GET', headers: {} }, { ...allowed, lookup: failingLookup });
    expect(unknownName).toMatchObject({ refused: false, error: 'connection error: ENOTFOUND' });
    expect(receiver.connections).toBe(0);
  });
});

describe('guardedLookup', () => {
  // Node calls a socket's lookup in two shapes; both must carry the guard's answer.
  const lookup = guardedLookup(resolvingTo('93.184.216.34', '2606:4700::1111'), NO_ALLOWED_CIDRS);

  it('answers { all: true } with every address', async () => {
    const answer = await new Promise((resolve, reject) =>
      lookup('hooks.example.com', { all: true }, (error, addresses) => (error ? reject(error) : resolve(addresses))),
    );
    expect(answer).toEqual([
      { address: '93.184.216.34', family: 4 },
      { address: '2606:4700::1111', family: 6 },
    ]);
  });

  it('answers a plain call with one address and its family', async () => {
    const answer = await new Promise((resolve, reject) =>
      lookup('hooks.example.com', {}, (error, address, family) => (error ? reject(error) : resolve([address, family]))),
    );
    expect(answer).toEqual(['93.184.216.34', 4]);
  });

  it('fails either shape when an address is refused, and a name without addresses', async () => {
    const refusing = guardedLookup(resolvingTo('93.184.216.34', 'fd00::1'), NO_ALLOWED_CIDRS);
    for (const options of [{ all: true }, {}]) {
      const error = await new Promise<Error | null>((resolve) => refusing('hooks.example.com', options, (failure) => resolve(failure)));
      expect(error?.message).toBe('fd00::1 is a unique-local address');
    }
    const empty = guardedLookup(resolvingTo(), NO_ALLOWED_CIDRS);
    const error = await new Promise<NodeJS.ErrnoException | null>((resolve) => empty('hooks.example.com', {}, (failure) => resolve(failure)));
    expect(error?.code).toBe('ENOTFOUND');
  });
});
