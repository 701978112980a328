import { randomUUID } from 'node:crypto';
import { agentPingAnswer } from '../../shared/agents/availability.js';
import { deleteDayRecord, putDayRecord } from '../../shared/db/day-records.js';
import { timeSortableId } from '../../shared/db/ids.js';
import { keys } from '../../shared/db/keys.js';
import { getLookup, getRecord, type StoredRecord } from '../../shared/db/records.js';
import type { Operation, OperationRequest } from '../../shared/http/request.js';
import { normalizeCallerNumber } from '../../shared/phone.js';
import { serviceRandom } from '../../shared/routing/random.js';
import { takeRateLimits, takeRateLimitsBeside, type RateCheck } from '../../shared/routing/rate-limits.js';
import { routeBuyers } from '../../shared/routing/route-buyers.js';
import { readForPing } from '../../shared/routing/ping-reads.js';
import { checkUserToken, inboundResponse, InboundError, tokensOf } from '../../shared/routing/inbound.js';
import { redactParams } from '../../shared/http/redact.js';
import { isoWithOffset } from '../../shared/time.js';
import { bidForPing } from '../../shared/bidding/ping-bids.js';
import { keptBids } from '../../shared/bidding/bid-ranking.js';

/** How many offered and excluded buyers a log entry lists (the counts are always complete). */
const LOG_LIST_LIMIT = 100;
/** Largest request or token set a log entry keeps verbatim (characters of JSON). */
const LOG_JSON_LIMIT = 20_000;

/** A partner-supplied value, kept as is unless it is too large for a log entry. */
export function boundedJson(value: Record<string, unknown>): Record<string, unknown> {
  const text = JSON.stringify(value);
  return text.length <= LOG_JSON_LIMIT ? value : { truncated: true, size: text.length, start: text.slice(0, 2000) };
}

/** How long a ping's answer may be posted (seconds). */
export const PING_VALID_SECONDS = 120;

/** Ping and post logs are public traffic: they expire (DynamoDB TTL) this many days after the request. */
export const INBOUND_LOG_RETENTION_DAYS = 90;

/** The TTL (epoch seconds) of a log entry written at `now`. */
export function inboundLogExpiry(now: Date): number {
  return Math.floor(now.getTime() / 1000) + INBOUND_LOG_RETENTION_DAYS * 86_400;
}

/**
 * A webhook without its own per-minute limit is held to this one, so no partner can flood the
 * service unmetered; set `rate_limit_per_minute` to raise or lower it.
 */
export const DEFAULT_RATE_LIMIT_PER_MINUTE = 600;

const RATE_FIELDS: Array<[RateCheck['window'], string]> = [
  ['minute', 'rate_limit_per_minute'],
  ['hour', 'rate_limit_per_hour'],
  ['day', 'rate_limit_per_day'],
];

/** The webhook's rate limits that apply to this request (per webhook, and per traffic source). */
export function rateChecks(webhook: Record<string, unknown>, trafficSourceId: number | undefined): RateCheck[] {
  const checks: RateCheck[] = [];
  if (typeof webhook.rate_limit_per_minute !== 'number') {
    checks.push({ scope: `webhook#${webhook.id}`, window: 'minute', limit: DEFAULT_RATE_LIMIT_PER_MINUTE, field: 'rate_limit_per_minute' });
  }
  for (const [window, field] of RATE_FIELDS) {
    const limit = webhook[field];
    if (typeof limit === 'number') checks.push({ scope: `webhook#${webhook.id}`, window, limit, field });
    const perSource = webhook[`${field}_per_traffic_source`];
    if (typeof perSource === 'number' && trafficSourceId !== undefined) {
      checks.push({ scope: `webhook#${webhook.id}#ts#${trafficSourceId}`, window, limit: perSource, field: `${field}_per_traffic_source` });
    }
  }
  return checks;
}

/** The 429 of a request over one of its webhook's rate limits. */
function rateLimitError(limited: RateCheck): InboundError {
  return new InboundError(429, { base: [`Rate limit exceeded (${limited.field} ${limited.limit})`] });
}

/**
 * The traffic source a partner names: by id, else by the company's own external id
 * (`user_traffic_source_id`), which is what partners of the hosted service were given (a number
 * there, or text such as `source_abc`: docs/compatibility.md). Undefined when neither matches.
 */
export async function trafficSourceNamed(companyId: number, text: string): Promise<number | undefined> {
  if (!text || text.length > 255) return undefined;
  if (/^\d{1,16}$/.test(text) && (await getRecord(companyId, 'traffic_sources', Number(text)))) return Number(text);
  const lookup = await getLookup(keys.lookup(companyId, 'traffic_sources', 'user_traffic_source_id', text));
  return lookup ? Number(lookup.id) : undefined;
}

/** Reads and checks the caller and traffic source of a ping or post. */
export async function callerAndSource(webhook: Record<string, unknown>, request: OperationRequest, requireCaller: boolean) {
  const params = request.params;
  const companyId = Number(webhook.company_id);
  const errors: Record<string, string[]> = {};
  const rawCaller = params.caller_id;
  const caller = normalizeCallerNumber(rawCaller);
  if (rawCaller !== undefined && rawCaller !== '' && !caller) errors.caller_id = ['is not a phone number'];
  else if (!caller && requireCaller) errors.caller_id = ['is required'];
  let trafficSourceId: number | undefined;
  const rawSource = params.traffic_source_id;
  if (rawSource !== undefined && rawSource !== '') {
    if (typeof rawSource !== 'string' && typeof rawSource !== 'number') errors.traffic_source_id = ['is not an id'];
    else trafficSourceId = await trafficSourceNamed(companyId, String(rawSource).trim());
    if (trafficSourceId === undefined && !errors.traffic_source_id) errors.traffic_source_id = ['does not exist'];
  } else if (webhook.require_traffic_source_id === true) {
    errors.traffic_source_id = ['is required'];
  }
  if (Object.keys(errors).length) throw new InboundError(422, errors);
  return { caller, trafficSourceId };
}

/**
 * `POST|GET /api/v1/inbound_webhooks/ping/:vanity_uri`: are buyers available for this caller,
 * how many, at what best bid. Decided from the offer's buyers and their counters read by key; the
 * answer is kept as the ping's log entry (one write), which the post reads back by ping_id.
 */
export const ping: Operation = async (request) => {
  const { body } = await runPing(request);
  return { kind: 'raw', response: inboundResponse(200, body) };
};

/** A ping decided and logged: its answer, its webhook and (for a buyers ping) its log entry, which a post reads back. */
export interface PingOutcome {
  webhook: StoredRecord;
  body: Record<string, unknown> & { success: boolean };
  log?: Record<string, unknown>;
}

/** Decides, counts and logs a ping (the `ping` operation, and the first half of `full`). */
export async function runPing(request: OperationRequest): Promise<PingOutcome> {
  const started = performance.now();
  // The webhook, its buyers and the blacklist check in one round trip when the vanity name's
  // chain is known (shared/routing/ping-reads.ts); a caller number that is not valid is refused
  // below and its blacklist answer unused.
  const { webhook, wanted, buyers, blacklisted } = await readForPing(request.pathParams.vanity_uri ?? '', normalizeCallerNumber(request.params.caller_id));
  const companyId = Number(webhook.company_id);
  const now = request.now;
  await checkUserToken(webhook, request.params);
  const { caller, trafficSourceId } = await callerAndSource(webhook, request, webhook.require_caller_id_on_ping === true);
  if (webhook.webhook_type === 'check_for_available_instant_agent') {
    // Agents, not buyers: the offer's call centers answer (shared/agents/availability.ts).
    const body = await agentPingAnswer(companyId, webhook, caller ? blacklisted : false);
    const limited = await takeRateLimits(companyId, rateChecks(webhook, trafficSourceId), now);
    if (limited) throw rateLimitError(limited);
    return { webhook, body: body as PingOutcome['body'] };
  }
  if (webhook.webhook_type !== 'check_for_available_buyer') {
    throw new InboundError(422, { webhook_type: [`${String(webhook.webhook_type)} pings are not served yet; use check_for_available_buyer`] });
  }

  const tokens = tokensOf(request.params);
  const routed = routeBuyers(
    buyers,
    { now, tokens, blacklisted, concurrencyBufferPercent: typeof webhook.concurrency_cap_buffer_percent === 'number' ? webhook.concurrency_cap_buffer_percent : undefined },
    serviceRandom,
  );
  const id = timeSortableId(now.getTime());
  const pingId = String(id);
  const checks = rateChecks(webhook, trafficSourceId);
  // With bidders to ask, the ping is counted against its rate limits beside the round's reads,
  // before anybody is asked: a refused ping asks no bidder, and the writes after the round (which
  // the answer waits for) are one fewer.
  let limitsTaken = false;
  const takeLimitsBeforeAsking = async () => {
    const limited = await takeRateLimits(companyId, checks, now);
    if (limited) throw rateLimitError(limited);
    limitsTaken = true;
  };
  // Bidding buyers (include_dynamic_buyers) asked now, ranked with the fixed bids (shared/bidding/ping-bids.ts).
  const { decision, round } = await bidForPing({
    companyId,
    webhook,
    decision: routed,
    now,
    caller: caller ?? null,
    trafficSourceId: trafficSourceId ?? null,
    tokens,
    pingId,
    beforeAsking: takeLimitsBeforeAsking,
    // A partner waits for the answer: a bidder's timeout counts from the ping's arrival.
    arrivedAt: started,
  });

  const limit = typeof webhook.buyers_limit_value === 'number' && webhook.buyers_limit_value > 0 ? webhook.buyers_limit_value : decision.eligible.length;
  const chosen = decision.eligible.slice(0, limit);
  const expiresAt = new Date(now.getTime() + PING_VALID_SECONDS * 1000);
  // `id`, `bid_price` and `tier` are the hosted service's names of the same facts (docs/compatibility.md).
  const offered = chosen.map((buyer) => ({ buyer_id: buyer.id, id: buyer.id, name: buyer.name, bid: buyer.bid, bid_price: buyer.bid, tier: buyer.effectiveTier, ping_id: `${pingId}-${buyer.id}` }));
  const reason = blacklisted
    ? 'The caller is blacklisted'
    : wanted.size === 0
      ? 'No buyers are assigned to this webhook or its offer'
      : 'No buyer is available';
  const body = {
    success: chosen.length > 0,
    status: 200,
    errors: chosen.length ? [] : [reason],
    ping_id: pingId,
    buyers: offered,
    available_buyers_count: chosen.length,
    best_bid: chosen.reduce<number | null>((best, buyer) => (buyer.bid !== null && (best === null || buyer.bid > best) ? buyer.bid : best), null),
    try_all_buyers: { ping_id: pingId, buyers: offered },
    try_all_buyers_ping_id: pingId,
    expires_at: isoWithOffset(expiresAt),
    expires_in_seconds: PING_VALID_SECONDS,
    test_mode: webhook.test_mode === true,
  };
  // Decided and bounded: only now is the request counted against its rate limits (a refused or
  // invalid ping uses up no slot), its log entry written in the same step (a refused ping's is
  // taken back: shared/routing/rate-limits.ts, takeRateLimitsBeside).
  const logEntry = {
    id,
    uuid: randomUUID(),
    created_at: now.toISOString(),
    updated_at: now.toISOString(),
    kind: 'ping',
    inbound_webhook_id: webhook.id,
    vanity_uri: webhook.vanity_uri,
    offer_id: webhook.offer_id ?? null,
    caller_id: caller ?? null,
    traffic_source_id: trafficSourceId ?? null,
    tokens: boundedJson(tokens),
    request: boundedJson(redactParams(request.params)),
    // The answer without its repeated try-all list, and at most LOG_LIST_LIMIT of each list:
    // a log entry must stay far below DynamoDB's 400 KB item limit however many buyers there are.
    response: { ...body, buyers: body.buyers.slice(0, LOG_LIST_LIMIT), try_all_buyers: { ping_id: pingId, buyers_count: offered.length } },
    success: body.success,
    // Every offered id: the post dials them in this order (a few bytes each).
    eligible_buyer_ids: chosen.map((buyer) => buyer.id),
    excluded_buyers: decision.excluded.slice(0, LOG_LIST_LIMIT).map((buyer) => ({ buyer_id: buyer.id, name: buyer.name, reason: buyer.reason })),
    excluded_count: decision.excluded.length,
    // The asks of bidding buyers (secrets redacted), and the bids of those offered: the post hands them to the call.
    ...(round ? { buyer_pings: round.pings.slice(0, LOG_LIST_LIMIT), rtb_bids: keptBids(Object.fromEntries(chosen.flatMap((buyer) => (round.bids[String(buyer.id)] ? [[String(buyer.id), round.bids[String(buyer.id)]!]] : [])))) } : {}),
    ping_expires_at: expiresAt.toISOString(),
    test_mode: webhook.test_mode === true,
    duration_ms: Math.round(performance.now() - started),
    expires_at: inboundLogExpiry(now),
  };
  const [limited] = await Promise.all([
    limitsTaken
      ? putDayRecord(companyId, 'inbound_webhook_logs', logEntry).then(() => undefined)
      : takeRateLimitsBeside(
          companyId,
          checks,
          now,
          () => putDayRecord(companyId, 'inbound_webhook_logs', logEntry),
          () => deleteDayRecord(companyId, 'inbound_webhook_logs', id),
        ),
    round?.persist(),
  ]);
  if (limited) throw rateLimitError(limited);
  return { webhook, body, log: logEntry };
}
