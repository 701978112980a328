import type { BiddingPort } from '../ports/bidding.js';
import { HttpBidding } from './http-bidding.js';
import { localAdapters } from './local-registry.js';

/**
 * BIDDING_ADAPTER: `http` (default, every mode: bidders are HTTP endpoints) or `local` (bidders
 * answered in this process from their URL's query: shared/local/local-bidders.ts).
 */
export function createBiddingPort(env: NodeJS.ProcessEnv = process.env): BiddingPort {
  const adapter = env.BIDDING_ADAPTER || 'http';
  if (adapter === 'http') return new HttpBidding();
  if (adapter === 'local') return new (localAdapters('BIDDING_ADAPTER').LocalBidders)();
  throw new Error(`Unknown BIDDING_ADAPTER ${adapter}`);
}

let port: BiddingPort | undefined;

/** The bidding port of this process (made on first use: its keep-alive connections are shared by every request). */
export function biddingPort(): BiddingPort {
  port ??= createBiddingPort();
  return port;
}

/** Replaces the bidding port (tests); no argument goes back to the configured one. */
export function setBiddingPort(replacement?: BiddingPort): void {
  port = replacement;
}
