/**
 * A bidding buyer's settings as the routing core reads them from the buyer record, with their
 * defaults and bounds (the write rules are in shared/buyers/rtb-fields.ts). Pure.
 */
export const BUYER_TYPES = ['static', 'rtb'] as const;
export type BuyerType = (typeof BUYER_TYPES)[number];

export const RTB_METHODS = ['POST', 'GET'] as const;
export type RtbMethod = (typeof RTB_METHODS)[number];

export const RTB_TIMEOUT = { defaultMs: 800, minMs: 50, maxMs: 5000 } as const;

/** Where a bid answer's facts are read, by name (rtb_response_paths' keys). */
export const RESPONSE_PATH_NAMES = ['bid', 'number', 'sip', 'expires_in', 'bid_id', 'reject_reason'] as const;
export type ResponsePathName = (typeof RESPONSE_PATH_NAMES)[number];

/** Longest rtb_url template (characters). */
export const RTB_URL_MAX_CHARS = 2000;
/** Longest answer path (characters). */
export const RESPONSE_PATH_MAX_CHARS = 200;

/** A bid lives at most this long (a longer expireInSeconds is cut to it), and this long when the answer names none. */
export const BID_EXPIRY = { defaultSeconds: 60, maxSeconds: 3600 } as const;

export interface RtbSettings {
  url: string;
  method: RtbMethod;
  /** The body template; null: the default JSON body (bid-request.ts). */
  body: string | null;
  headers: Record<string, string>;
  timeoutMs: number;
  minBid: number | null;
  paths: Partial<Record<ResponsePathName, string>>;
}

export function isRtbBuyer(record: Record<string, unknown>): boolean {
  return record.buyer_type === 'rtb';
}

function stringRecord(value: unknown): Record<string, string> {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return {};
  return Object.fromEntries(Object.entries(value).filter((entry): entry is [string, string] => typeof entry[1] === 'string'));
}

/** The buyer's bidding settings, defaults filled in (a stored timeout out of bounds is brought back into them). */
export function rtbSettings(record: Record<string, unknown>): RtbSettings {
  const timeout = typeof record.rtb_timeout_ms === 'number' && Number.isFinite(record.rtb_timeout_ms) ? record.rtb_timeout_ms : RTB_TIMEOUT.defaultMs;
  const paths = stringRecord(record.rtb_response_paths);
  return {
    url: typeof record.rtb_url === 'string' ? record.rtb_url : '',
    method: record.rtb_method === 'GET' ? 'GET' : 'POST',
    body: typeof record.rtb_body === 'string' && record.rtb_body !== '' ? record.rtb_body : null,
    headers: stringRecord(record.rtb_headers),
    timeoutMs: Math.min(RTB_TIMEOUT.maxMs, Math.max(RTB_TIMEOUT.minMs, Math.round(timeout))),
    minBid: typeof record.rtb_min_bid === 'number' && Number.isFinite(record.rtb_min_bid) ? record.rtb_min_bid : null,
    paths: Object.fromEntries(RESPONSE_PATH_NAMES.filter((name) => paths[name]).map((name) => [name, paths[name]!])),
  };
}
