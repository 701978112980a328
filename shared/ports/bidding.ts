/**
 * Asking a bidding buyer's endpoint for a bid (real-time bidding, docs/rtb.md): one HTTP
 * exchange, answered within its timeout whatever happens. Nothing throws: a refusal by the
 * address guard, a timeout or a broken connection is a result, so a bidder can only be left out.
 * Chosen by BIDDING_ADAPTER (shared/adapters/bidding.ts).
 */
export interface BidHttpRequest {
  url: string;
  method: 'GET' | 'POST';
  headers: Record<string, string>;
  body?: string;
  timeoutMs: number;
}

export interface BidHttpResponse {
  /** The HTTP status; null when no answer came. */
  status: number | null;
  /** The answer's body as text (its first bytes: a bid answer is small). */
  body: string;
  durationMs: number;
  /** null on any HTTP answer; else why none came ('timeout after 800 ms', 'refused: ...', 'connection error: ...'). */
  error: string | null;
  /** The address guard refused the target: no connection was made. */
  refused: boolean;
}

export interface BiddingPort {
  ask(request: BidHttpRequest): Promise<BidHttpResponse>;
}
