import { randomUUID } from 'node:crypto';
import { dayRecordPut, getDayRecord, putDayRecord } from '../../shared/db/day-records.js';
import { timeSortableId } from '../../shared/db/ids.js';
import type { Operation, OperationRequest, OperationResult } from '../../shared/http/request.js';
import type { StoredRecord } from '../../shared/db/records.js';
import { numbersOfOffer, numbersOfPool } from '../../shared/numbers/lookup.js';
import { checkUserToken, findWebhook, inboundResponse, InboundError, parsePingId } from '../../shared/routing/inbound.js';
import { serviceRandom } from '../../shared/routing/random.js';
import { reserveNumber, type NumberReservation } from '../../shared/routing/reservations.js';
import { redactParams } from '../../shared/http/redact.js';
import { isoWithOffset } from '../../shared/time.js';
import type { PlacedBid } from '../../shared/bidding/bid-ranking.js';
import { boundedJson, callerAndSource, inboundLogExpiry, runPing } from './ping.js';

/** How long a posted number stays reserved for the caller (seconds). */
export const RESERVATION_SECONDS = 180;

/**
 * `POST|GET /api/v1/inbound_webhooks/post/:vanity_uri` with a `ping_id` (a buyer's, or the
 * try-all id) and `caller_id`: reserves a tracking number of the webhook's pool (or the offer's
 * numbers) for that caller and answers with it in E.164 and when the reservation ends.
 */
export const post: Operation = async (request) => {
  const started = performance.now();
  // Post-only: without a ping id the post pings first, in the same request (the hosted service's
  // documented post-only mode; docs/ping-post.md).
  if (request.params.ping_id === undefined || request.params.ping_id === '') return pingAndPost(request);
  const webhook = await findWebhook(request);
  const companyId = Number(webhook.company_id);
  await checkUserToken(webhook, request.params);

  const parsed = parsePingId(request.params.ping_id);
  if (!parsed) throw new InboundError(404, { ping_id: ['is unknown'] });
  const pinged = await getDayRecord(companyId, 'inbound_webhook_logs', parsed.pingId);
  if (!pinged || pinged.kind !== 'ping' || pinged.inbound_webhook_id !== webhook.id) throw new InboundError(404, { ping_id: ['is unknown'] });
  const body = await reserveForPing(request, webhook, pinged, parsed.buyerId, String(request.params.ping_id), started);
  return { kind: 'raw', response: inboundResponse(200, body) };
};

/**
 * `POST|GET /api/v1/inbound_webhooks/full/:vanity_uri` (and a post without `ping_id`): ping and
 * post in one request. A ping that finds no buyer answers as the ping does (`success: false`);
 * otherwise the post's answer for the try-all ping id, with the ping's buyers.
 */
export const full: Operation = (request) => pingAndPost(request);

async function pingAndPost(request: OperationRequest): Promise<OperationResult> {
  const started = performance.now();
  const pinged = await runPing(request);
  if (!pinged.body.success || !pinged.log) return { kind: 'raw', response: inboundResponse(200, pinged.body) };
  const pingId = String(pinged.log.id);
  const body = await reserveForPing(request, pinged.webhook, pinged.log, undefined, pingId, started);
  return { kind: 'raw', response: inboundResponse(200, { ...body, try_all_buyers_ping_id: pingId, buyers: pinged.body.buyers }) };
}

/**
 * Reserves a number for the pinged caller (a buyer's ping id when `buyerId` is given, else the
 * try-all id), writes the post's log entry with the reservation, and answers with the number.
 */
async function reserveForPing(request: OperationRequest, webhook: StoredRecord, pinged: Record<string, unknown>, buyerId: number | undefined, pingIdText: string, started: number): Promise<Record<string, unknown>> {
  const companyId = Number(webhook.company_id);
  const now = request.now;
  if (Date.parse(String(pinged.ping_expires_at)) <= now.getTime()) throw new InboundError(410, { ping_id: ['has expired; ping again'] });
  const eligible = Array.isArray(pinged.eligible_buyer_ids) ? (pinged.eligible_buyer_ids as number[]) : [];
  if (buyerId !== undefined && !eligible.includes(buyerId)) throw new InboundError(404, { ping_id: ['is unknown'] });
  const buyerIds = buyerId !== undefined ? [buyerId] : eligible;
  if (buyerIds.length === 0) throw new InboundError(422, { ping_id: ['found no available buyer'] });

  const { caller, trafficSourceId } = await callerAndSource(webhook, request, true);
  const numbers =
    typeof webhook.ring_pool_id === 'number'
      ? await numbersOfPool(companyId, webhook.ring_pool_id)
      : typeof webhook.offer_id === 'number'
        ? await numbersOfOffer(companyId, webhook.offer_id)
        : [];
  if (numbers.length === 0) throw new InboundError(422, { base: ["No tracking number is assigned to this webhook's pool or offer"] });
  const number = String(numbers[Math.floor(serviceRandom() * numbers.length)]!.number);
  const until = new Date(now.getTime() + RESERVATION_SECONDS * 1000);
  const testMode = webhook.test_mode === true;
  // In test mode the answer is real but nothing is held, so no live call is steered by it.
  const reservation: NumberReservation | undefined = testMode
    ? undefined
    : {
      number,
      caller: caller!,
      buyer_ids: buyerIds,
      tokens: pinged.tokens && !(pinged.tokens as Record<string, unknown>).truncated ? (pinged.tokens as Record<string, unknown>) : {},
      ping_id: pingIdText,
      inbound_webhook_id: Number(webhook.id),
      offer_id: typeof webhook.offer_id === 'number' ? webhook.offer_id : null,
      traffic_source_id: trafficSourceId ?? (typeof pinged.traffic_source_id === 'number' ? pinged.traffic_source_id : null),
      reserved_until: until.toISOString(),
      // The bids of the bidding buyers posted for (docs/rtb.md): the call dials them while they are live.
      ...(pinged.rtb_bids ? { rtb_bids: Object.fromEntries(Object.entries(pinged.rtb_bids as Record<string, PlacedBid>).filter(([buyerId]) => buyerIds.includes(Number(buyerId)))) } : {}),
    };
  const body = {
    success: true,
    status: 200,
    errors: [],
    ping_id: pingIdText,
    phone_number: number,
    service_number: number,
    // The hosted service's names of the number to forward the caller to (docs/compatibility.md).
    trackdrive_number: number,
    forwarding_number: number,
    forwarding_number_status: 'accepted',
    caller_id: caller,
    buyer_ids: buyerIds,
    expires_at: isoWithOffset(until),
    expires_in_seconds: RESERVATION_SECONDS,
    test_mode: testMode,
  };
  const id = timeSortableId(now.getTime());
  const log = {
    id,
    uuid: randomUUID(),
    created_at: now.toISOString(),
    updated_at: now.toISOString(),
    kind: 'post',
    inbound_webhook_id: webhook.id,
    vanity_uri: webhook.vanity_uri,
    offer_id: webhook.offer_id ?? null,
    caller_id: caller ?? null,
    traffic_source_id: trafficSourceId ?? null,
    request: boundedJson(redactParams(request.params)),
    response: body,
    success: true,
    eligible_buyer_ids: buyerIds,
    excluded_buyers: [],
    test_mode: testMode,
    duration_ms: Math.round(performance.now() - started),
    expires_at: inboundLogExpiry(now),
  };
  // The reservation and its log entry are written together: a failed post holds no number.
  if (reservation) await reserveNumber(companyId, reservation, [{ Put: dayRecordPut(companyId, 'inbound_webhook_logs', log) }]);
  else await putDayRecord(companyId, 'inbound_webhook_logs', log);
  return body;
}
