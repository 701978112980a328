import dns, { type LookupAddress, type LookupAllOptions } from 'node:dns';
import { http, https } from './node-http.js';
import net from 'node:net';
import { addressRefusal, configuredAllowedCidrs, type AllowedCidrs } from './address-policy.js';

/**
 * Sends one outbound HTTP request (a subscription delivery, an outgoing webhook) through the
 * SSRF guard. A literal IP host is judged before connecting; a hostname is judged inside the
 * socket's own DNS lookup, on every address it resolves to, so the address checked is the one
 * connected to and a name that rebinds between validation and delivery gains nothing.
 * Redirects are never followed. Nothing throws: every failure is a result for the webhook log.
 */

export interface OutboundRequest {
  url: string;
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  headers: Record<string, string>;
  body?: string;
  /** Whole request (connect + response), default 10_000 ms. */
  timeoutMs?: number;
  /** Response body bytes kept, default 1024; the rest is not read. */
  maxResponseBytes?: number;
}

export interface OutboundResult {
  /** 2xx */
  ok: boolean;
  status: number | null;
  durationMs: number;
  /** The first maxResponseBytes of the body as UTF-8 text (lossy), '' when none. */
  responseExcerpt: string;
  /** null on any HTTP response; else e.g. 'refused: 127.0.0.1 is a loopback address', 'timeout after 10000 ms', 'connection error: ECONNREFUSED', 'invalid url'. */
  error: string | null;
  /** True when the guard refused the target (no connection was made). */
  refused: boolean;
}

/** Resolves every address of a name; `dns.lookup` is one. */
export type ResolveAllAddresses = (
  hostname: string,
  options: LookupAllOptions,
  callback: (error: NodeJS.ErrnoException | null, addresses: LookupAddress[]) => void,
) => void;

export interface SendOptions {
  /** Ranges allowed whatever their kind; default: WEBHOOK_ALLOWED_CIDRS. */
  allowed?: AllowedCidrs;
  /** The resolver, default `dns.lookup`; tests inject one to play DNS rebinding. */
  lookup?: ResolveAllAddresses;
  /**
   * Keep-alive agents (bidding: many small requests to the same endpoints within seconds). A
   * pooled connection was guarded when it was made; a response read to its end leaves it in the
   * pool. Without agents every request has a connection of its own, closed after it.
   */
  agents?: { http: InstanceType<typeof http.Agent>; https: InstanceType<typeof https.Agent> };
}

/** The error of a request whose pooled connection the other end had closed meanwhile: safe to send again once. */
export const REUSED_CONNECTION_RESET = 'connection error: ECONNRESET (reused connection)';

export const DEFAULT_TIMEOUT_MS = 10_000;
export const DEFAULT_MAX_RESPONSE_BYTES = 1024;
export const DEFAULT_USER_AGENT = 'call-tracking-webhooks/1.0';

/** The guard's answer inside a lookup, told apart from DNS failures when the request errors. */
class TargetRefused extends Error {}

/**
 * A socket `lookup` that resolves every address of the name and fails the connection if any is
 * refused: a name that answers with one public and one private address is not to be trusted.
 * Node calls it with `{ all: true }` (autoSelectFamily) expecting a list, or without expecting
 * one address and its family; both are answered.
 */
export function guardedLookup(resolveAll: ResolveAllAddresses, allowed: AllowedCidrs): net.LookupFunction {
  return (hostname, options, callback) => {
    resolveAll(hostname, { ...options, all: true }, (error, addresses) => {
      if (error) return callback(error, '');
      const refusal = addresses.map(({ address }) => addressRefusal(address, allowed)).find((reason) => reason !== undefined);
      if (refusal !== undefined) return callback(new TargetRefused(refusal), '');
      const first = addresses[0];
      if (!first) return callback(Object.assign(new Error(`${hostname} has no addresses`), { code: 'ENOTFOUND' }), '');
      if (options?.all) return callback(null, addresses);
      callback(null, first.address, first.family);
    });
  };
}

type Outcome = Omit<OutboundResult, 'durationMs'>;

const NOTHING_SENT: Outcome = { ok: false, status: null, responseExcerpt: '', error: null, refused: false };

export async function sendOutbound(request: OutboundRequest, options: SendOptions = {}): Promise<OutboundResult> {
  const startedAt = performance.now();
  const outcome = await attempt(request, options);
  return { ...outcome, durationMs: Math.round(performance.now() - startedAt) };
}

async function attempt(request: OutboundRequest, options: SendOptions): Promise<Outcome> {
  let allowed: AllowedCidrs;
  try {
    allowed = options.allowed ?? configuredAllowedCidrs();
  } catch (error) {
    return { ...NOTHING_SENT, error: `configuration error: ${(error as Error).message}` };
  }
  let url: URL;
  try {
    url = new URL(request.url);
  } catch {
    return { ...NOTHING_SENT, error: 'invalid url' };
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    return { ...NOTHING_SENT, error: `invalid url: ${url.protocol} is not http or https` };
  }
  // Node connects to a literal IP without calling lookup, so it is judged here.
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  const literalRefusal = net.isIP(host) ? addressRefusal(host, allowed) : undefined;
  if (literalRefusal !== undefined) return { ...NOTHING_SENT, error: `refused: ${literalRefusal}`, refused: true };
  try {
    return await exchange(url, host, request, guardedLookup(options.lookup ?? dns.lookup, allowed), options.agents);
  } catch (error) {
    // http.request throws at once on what it cannot send, such as a header value with a newline.
    return { ...NOTHING_SENT, error: `invalid request: ${(error as Error).message}` };
  }
}

function exchange(url: URL, host: string, request: OutboundRequest, lookup: net.LookupFunction, agents?: SendOptions['agents']): Promise<Outcome> {
  const timeoutMs = request.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const maxResponseBytes = request.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES;
  return new Promise((resolve) => {
    const kept: Buffer[] = [];
    let keptBytes = 0;
    let status: number | null = null;
    let settled = false;
    let timer: NodeJS.Timeout | undefined;

    // Once any response has arrived, its status is the result, even if the body then fails.
    const responded = (): Outcome => ({
      ...NOTHING_SENT,
      ok: status !== null && status >= 200 && status < 300,
      status,
      // stream: true leaves out a character cut in half at the limit instead of mangling it.
      responseExcerpt: new TextDecoder().decode(Buffer.concat(kept), { stream: true }),
    });
    /** `complete`: the response was read to its end, so a keep-alive connection may serve the next request. */
    const settle = (outcome: Outcome, complete = false): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      // This closes the socket, and with it whatever of the body was left unread.
      if (!(agents && complete)) outgoing.destroy();
      resolve(outcome);
    };

    const outgoing = (url.protocol === 'https:' ? https : http).request(
      {
        protocol: url.protocol,
        hostname: host,
        port: url.port || undefined,
        path: `${url.pathname}${url.search}`,
        auth: url.username || url.password ? `${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}` : undefined,
        method: request.method,
        headers: outgoingHeaders(request),
        agent: agents ? (url.protocol === 'https:' ? agents.https : agents.http) : false,
        lookup,
      },
      (response) => {
        status = response.statusCode ?? null;
        if (keptBytes >= maxResponseBytes) return settle(responded());
        response.on('data', (chunk: Buffer) => {
          const part = chunk.subarray(0, maxResponseBytes - keptBytes);
          kept.push(part);
          keptBytes += part.length;
          if (keptBytes >= maxResponseBytes) settle(responded());
        });
        response.on('end', () => settle(responded(), true));
        // A body cut short still leaves the status the receiver answered with.
        response.on('error', () => settle(responded()));
        response.on('close', () => settle(responded()));
      },
    );
    outgoing.on('error', (error: NodeJS.ErrnoException) => {
      if (status !== null) return settle(responded());
      if (error instanceof TargetRefused) return settle({ ...NOTHING_SENT, error: `refused: ${error.message}`, refused: true });
      if (outgoing.reusedSocket && error.code === 'ECONNRESET') return settle({ ...NOTHING_SENT, error: REUSED_CONNECTION_RESET });
      settle({ ...NOTHING_SENT, error: `connection error: ${error.code ?? error.message}` });
    });
    timer = setTimeout(() => {
      settle(status !== null ? responded() : { ...NOTHING_SENT, error: `timeout after ${timeoutMs} ms` });
    }, timeoutMs);
    outgoing.end(request.body);
  });
}

function outgoingHeaders(request: OutboundRequest): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(request.headers)) {
    // The length is the body's own, whatever the caller wrote.
    if (request.body !== undefined && name.toLowerCase() === 'content-length') continue;
    headers[name] = value;
  }
  if (!Object.keys(headers).some((name) => name.toLowerCase() === 'user-agent')) headers['User-Agent'] = DEFAULT_USER_AGENT;
  if (request.body !== undefined) headers['Content-Length'] = String(Buffer.byteLength(request.body));
  return headers;
}
