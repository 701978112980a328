/**
 * What a demo bidder answers (`npm run bidder`, and the local bidding adapter that answers from a
 * URL's query without a network): the widely used RTB answer shape. Pure.
 */
export interface BidderOptions {
  bid: number;
  /** E.164 number to send the call to (or `sip`). */
  number?: string;
  sip?: string;
  /** Answer after this long (ms). */
  delayMs: number;
  /** Decline every request (`rejectReason`). */
  reject: boolean;
  expireInSeconds: number;
}

export const DEFAULT_BIDDER: BidderOptions = { bid: 10, number: '+14155550142', delayMs: 0, reject: false, expireInSeconds: 60 };

export function bidderAnswer(options: BidderOptions, requestCount: number): Record<string, unknown> {
  if (options.reject) return { bidAmount: 0, rejectReason: 'Not buying this call' };
  return {
    bidId: `bid-${requestCount}`,
    bidAmount: options.bid,
    ...(options.sip ? { sipAddress: options.sip } : { phoneNumber: options.number ?? DEFAULT_BIDDER.number }),
    expireInSeconds: options.expireInSeconds,
  };
}

/** Options from a query string's `bid`, `number`, `sip`, `delay_ms`, `reject`, `expire_in_seconds` (the local adapter's URLs). */
export function bidderOptionsFromQuery(query: URLSearchParams): BidderOptions {
  const number = (name: string, fallback: number) => {
    const value = Number(query.get(name));
    return query.has(name) && Number.isFinite(value) ? value : fallback;
  };
  return {
    bid: number('bid', DEFAULT_BIDDER.bid),
    number: query.get('number') ?? DEFAULT_BIDDER.number,
    sip: query.get('sip') ?? undefined,
    delayMs: Math.max(0, number('delay_ms', 0)),
    reject: query.has('reject') && query.get('reject') !== 'false',
    expireInSeconds: number('expire_in_seconds', DEFAULT_BIDDER.expireInSeconds),
  };
}
