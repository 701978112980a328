import { http, https } from '../outbound/node-http.js';
import { REUSED_CONNECTION_RESET, sendOutbound } from '../outbound/send.js';
import type { BiddingPort, BidHttpRequest, BidHttpResponse } from '../ports/bidding.js';

/** Bid answers are small; more than this is not read (and fails as an answer that is not JSON). */
export const MAX_BID_ANSWER_BYTES = 16_384;

/**
 * Bids asked over HTTP through the outgoing webhooks' sender, so the same address guard
 * (WEBHOOK_ALLOWED_CIDRS) applies to every connection. Connections are kept alive: a ping asks
 * the same few endpoints again and again within seconds, and a new TLS handshake per bid would
 * eat a large part of a bidder's 800 ms.
 */
export class HttpBidding implements BiddingPort {
  private readonly agents = {
    http: new http.Agent({ keepAlive: true, maxSockets: 64, maxFreeSockets: 16, timeout: 30_000 }),
    https: new https.Agent({ keepAlive: true, maxSockets: 64, maxFreeSockets: 16, timeout: 30_000 }),
  };

  async ask(request: BidHttpRequest): Promise<BidHttpResponse> {
    const started = performance.now();
    const send = (timeoutMs: number) =>
      sendOutbound(
        { url: request.url, method: request.method, headers: request.headers, body: request.body, timeoutMs, maxResponseBytes: MAX_BID_ANSWER_BYTES },
        { agents: this.agents },
      );
    let result = await send(request.timeoutMs);
    // A pooled connection the bidder had closed: sent again on a new one, within what is left of the timeout.
    const left = request.timeoutMs - (performance.now() - started);
    if (result.error === REUSED_CONNECTION_RESET && left > 10) result = await send(Math.floor(left));
    return {
      status: result.status,
      body: result.responseExcerpt,
      durationMs: Math.round(performance.now() - started),
      error: result.error,
      refused: result.refused,
    };
  }
}
