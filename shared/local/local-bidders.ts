import { bidderAnswer, bidderOptionsFromQuery } from '../bidding/bidder-answer.js';
import type { BiddingPort, BidHttpRequest, BidHttpResponse } from '../ports/bidding.js';

/**
 * BIDDING_ADAPTER=local: bidders answered in this process, without a network, each as its URL's
 * query says (`?bid=42.50&number=%2B14155550142&delay_ms=300`, `&reject=1`, `&sip=sip:a@b`): for
 * demos and benches on a machine with no bidder running. `npm run bidder` serves the same answers
 * over HTTP.
 */
export class LocalBidders implements BiddingPort {
  private count = 0;

  async ask(request: BidHttpRequest): Promise<BidHttpResponse> {
    let url: URL;
    try {
      url = new URL(request.url);
    } catch {
      return { status: null, body: '', durationMs: 0, error: 'invalid url', refused: false };
    }
    const options = bidderOptionsFromQuery(url.searchParams);
    if (options.delayMs >= request.timeoutMs) {
      await new Promise((done) => setTimeout(done, request.timeoutMs));
      return { status: null, body: '', durationMs: request.timeoutMs, error: `timeout after ${request.timeoutMs} ms`, refused: false };
    }
    if (options.delayMs > 0) await new Promise((done) => setTimeout(done, options.delayMs));
    this.count += 1;
    return { status: 200, body: JSON.stringify(bidderAnswer(options, this.count)), durationMs: options.delayMs, error: null, refused: false };
  }
}
