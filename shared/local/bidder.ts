import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { bidderAnswer, type BidderOptions } from '../bidding/bidder-answer.js';

/**
 * A bidding buyer's endpoint on this machine (`npm run bidder`, tests, benches): answers every
 * request with the widely used RTB answer shape (shared/bidding/bidder-answer.ts), or with what
 * `respond` says (an error status, HTML, nothing at all). Keeps connections alive, as a real
 * bidder behind a load balancer does. Loopback only.
 */
export interface BidderRequest {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** A raw answer, or `never` to leave the request hanging (a bidder that times out). */
export type BidderResponse = { status: number; body: string; contentType?: string } | 'never';

export interface RunningBidder {
  url: string;
  port: number;
  /** Every request received, oldest first. */
  requests: BidderRequest[];
  /** Connections accepted (fewer than requests when the service keeps them alive). */
  connections(): number;
  close(): Promise<void>;
}

export async function startBidder(options: Partial<BidderOptions> & { port?: number; respond?: (request: BidderRequest) => BidderResponse }): Promise<RunningBidder> {
  const settings: BidderOptions = { bid: 10, number: '+14155550142', delayMs: 0, reject: false, expireInSeconds: 60, ...options };
  const requests: BidderRequest[] = [];
  const hanging = new Set<http.ServerResponse>();
  const server = http.createServer((incoming, outgoing) => {
    let body = '';
    incoming.setEncoding('utf8');
    incoming.on('data', (chunk: string) => (body += chunk.slice(0, 65_536)));
    incoming.on('end', () => {
      const request = { method: incoming.method ?? 'GET', url: incoming.url ?? '/', headers: incoming.headers, body };
      requests.push(request);
      const answer: BidderResponse = options.respond ? options.respond(request) : { status: 200, body: JSON.stringify(bidderAnswer(settings, requests.length)) };
      if (answer === 'never') {
        hanging.add(outgoing);
        return;
      }
      const send = () => {
        outgoing.writeHead(answer.status, { 'content-type': answer.contentType ?? 'application/json' });
        outgoing.end(answer.body);
      };
      if (settings.delayMs > 0) setTimeout(send, settings.delayMs);
      else send();
    });
  });
  server.keepAliveTimeout = 30_000;
  let connections = 0;
  server.on('connection', () => (connections += 1));
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}/bid`,
    port,
    requests,
    connections: () => connections,
    close: async () => {
      for (const response of hanging) response.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
