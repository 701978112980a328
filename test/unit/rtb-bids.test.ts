import { describe, expect, it } from 'vitest';
import { readBidAnswer, valueAt } from '../../shared/bidding/bid-answer.js';
import { bestFirst, KEPT_BIDS, keptBids, liveBids, withBids, type PlacedBid } from '../../shared/bidding/bid-ranking.js';
import { prepareBid, secretNamesOf, type BidFacts } from '../../shared/bidding/bid-request.js';
import { rtbSettings } from '../../shared/bidding/bid-settings.js';
import { withBidFigures } from '../../shared/bidding/bid-report.js';
import type { BidHttpResponse } from '../../shared/ports/bidding.js';
import { askTimeoutMs } from '../../shared/bidding/ask-bids.js';

/** The pure parts of real-time bidding (docs/rtb.md): requests, answers, ranking, report rows. */

const ok = (body: unknown, status = 200): BidHttpResponse => ({ status, body: typeof body === 'string' ? body : JSON.stringify(body), durationMs: 5, error: null, refused: false });
const settings = (fields: Record<string, unknown> = {}) => rtbSettings({ buyer_type: 'rtb', rtb_url: 'https://bids.example.com/b', ...fields });

describe('reading a bid answer', () => {
  it.each([
    ['the default shape', {}, ok({ bidAmount: 42.5, phoneNumber: '+14155550142', expireInSeconds: 30, bidId: 'b1' }), { ok: true, amount: 42.5, number: '+14155550142', sip: null, expiresInSeconds: 30, bidId: 'b1' }],
    ['a number without +', {}, ok({ bidAmount: '12.345', phoneNumberNoPlus: '14155550142' }), { ok: true, amount: 12.35, number: '+14155550142', expiresInSeconds: 60 }],
    ['a SIP address', {}, ok({ bidAmount: 5, sipAddress: 'queue@pbx.example.com' }), { ok: true, number: null, sip: 'sip:queue@pbx.example.com' }],
    ['own paths', { rtb_response_paths: { bid: 'data.bids.0.price', number: 'data.bids.0.did', expires_in: 'ttl' } }, ok({ ttl: 9999, data: { bids: [{ price: 7, did: '+14155550142' }] } }), { ok: true, amount: 7, expiresInSeconds: 3600 }],
    ['a timeout', {}, { status: null, body: '', durationMs: 800, error: 'timeout after 800 ms', refused: false }, { ok: false, reason: 'timeout' }],
    ['a refused address', {}, { status: null, body: '', durationMs: 0, error: 'refused: 10.0.0.1 is a private address', refused: true }, { ok: false, reason: 'refused' }],
    ['a connection error', {}, { status: null, body: '', durationMs: 3, error: 'connection error: ECONNREFUSED', refused: false }, { ok: false, reason: 'connection_error' }],
    ['an error status', {}, ok({ bidAmount: 10, phoneNumber: '+14155550142' }, 503), { ok: false, reason: 'error_status', detail: 'HTTP 503' }],
    ['HTML', {}, ok('<html>oops</html>'), { ok: false, reason: 'invalid_answer' }],
    ['a JSON scalar', {}, ok('42'), { ok: false, reason: 'invalid_answer' }],
    ['a rejection', {}, ok({ bidAmount: 0, rejectReason: 'Duplicate caller' }), { ok: false, reason: 'rejected', detail: 'Duplicate caller' }],
    ['no bid', {}, ok({ phoneNumber: '+14155550142' }), { ok: false, reason: 'no_bid' }],
    ['a bid that is not a number', {}, ok({ bidAmount: 'lots', phoneNumber: '+14155550142' }), { ok: false, reason: 'no_bid' }],
    ['a bid under the minimum', { rtb_min_bid: 15 }, ok({ bidAmount: 10, phoneNumber: '+14155550142' }), { ok: false, reason: 'below_minimum', amount: 10 }],
    ['no number', {}, ok({ bidAmount: 10 }), { ok: false, reason: 'no_number' }],
    ['a number that is none', {}, ok({ bidAmount: 10, phoneNumber: 'call me' }), { ok: false, reason: 'no_number' }],
  ])('%s', (_name, fields, response, expected) => {
    expect(readBidAnswer(settings(fields), response)).toMatchObject(expected);
  });

  it('reads own properties only along a path', () => {
    expect(valueAt({ a: [{ b: 1 }] }, 'a.0.b')).toBe(1);
    expect(valueAt({}, 'constructor')).toBeUndefined();
    expect(valueAt({ a: 1 }, 'a.b')).toBeUndefined();
  });
});

describe('preparing a bid request', () => {
  const facts: BidFacts = { caller: '+14155552671', callerState: 'CA', callerZip: '94105', offerId: 3, trafficSourceId: null, tokens: { age: 42, caller_id: 'spoofed' } };

  it('sends the caller and tokens as JSON by default, the facts winning over tokens', () => {
    const prepared = prepareBid(settings(), facts, new Map());
    expect(prepared.ok).toBe(true);
    if (!prepared.ok) return;
    expect(prepared.bid.request).toMatchObject({ method: 'POST', timeoutMs: 800, headers: { 'Content-Type': 'application/json' } });
    expect(JSON.parse(prepared.bid.request.body!)).toMatchObject({ caller_id: '+14155552671', caller_state: 'CA', caller_zip: '94105', offer_id: 3, age: 42 });
  });

  it('renders templates, fills secrets only where referenced and redacts them in what is logged', () => {
    const buyer = settings({
      rtb_method: 'GET',
      rtb_url: 'https://user:pw@bids.example.com/b?c={{caller_id}}&k={{secret:key}}',
      rtb_headers: { Authorization: 'Bearer {{secret:key}}', 'X-Age': '{{age}}' },
    });
    expect(secretNamesOf(buyer)).toEqual(['key']);
    const prepared = prepareBid(buyer, { ...facts, tokens: { age: '{{secret:key}}' } }, new Map([['key', 's3cr&t']]));
    if (!prepared.ok) throw new Error(prepared.detail);
    expect(prepared.bid.request.url).toBe('https://user:pw@bids.example.com/b?c=%2B14155552671&k=s3cr%26t');
    expect(prepared.bid.request.body).toBeUndefined();
    // A token's value is never read as a secret reference.
    expect(prepared.bid.request.headers).toMatchObject({ Authorization: 'Bearer s3cr&t', 'X-Age': '{{secret:key}}' });
    expect(prepared.bid.shownHeaders.Authorization).toBe('Bearer [REDACTED]');
    expect(prepared.bid.shownUrl).not.toContain('s3cr');
    expect(prepared.bid.shownUrl).not.toContain(':pw@');
  });

  it('makes no request when a secret item is missing', () => {
    expect(prepareBid(settings({ rtb_headers: { 'X-Key': '{{secret:gone}}' } }), facts, new Map())).toMatchObject({ ok: false, reason: 'missing_secret' });
  });

  it('keeps the timeout within bounds', () => {
    expect(rtbSettings({ rtb_timeout_ms: 99_999 }).timeoutMs).toBe(5000);
    expect(rtbSettings({}).timeoutMs).toBe(800);
  });
});

describe("a bidder's wait", () => {
  it('is its whole timeout from the ask when no arrival is given (calls)', () => {
    expect(askTimeoutMs(800, undefined, 1_000_000)).toBe(800);
  });

  it("counts from a ping's arrival: the reads before the round come off it", () => {
    expect(askTimeoutMs(500, 1000, 1000)).toBe(500);
    expect(askTimeoutMs(500, 1000, 1012.6)).toBe(487);
    expect(askTimeoutMs(500, 1000, 1249)).toBe(251);
  });

  it('is never under half the timeout, nor over it', () => {
    expect(askTimeoutMs(500, 1000, 1251)).toBe(250);
    expect(askTimeoutMs(500, 1000, 9000)).toBe(250);
    expect(askTimeoutMs(801, 1000, 5000)).toBe(401);
    expect(askTimeoutMs(500, 1000, 990)).toBe(500);
  });
});

describe('ranking bids with fixed buyers', () => {
  const bid = (buyerId: number, amount: number, expires = '2030-01-01T00:00:00.000Z'): PlacedBid => ({ buyer_id: buyerId, amount, number: `+1415555014${buyerId}`, sip: null, expires_at: expires, bid_id: null });
  const fixed = { record: { id: 1, name: 'Fixed', number: '+12125551000', current_conversion_revenue: 20, route_by_type: 'tier' } };
  const bidder = (id: number) => ({ record: { id, name: `Bidder ${id}`, buyer_type: 'rtb', number: null, current_conversion_revenue: null, buyer_conversions_schedule: [{ x: 1 }] } });

  it('overlays bidders with their bid, leaves out those without, and ranks everyone by price', () => {
    const buyers = withBids([fixed, bidder(2), bidder(3)], { '2': bid(2, 42.5) });
    expect(buyers.map((buyer) => [buyer.record.id, buyer.record.number, buyer.record.current_conversion_revenue, buyer.record.route_by_type])).toEqual([
      [1, '+12125551000', 20, 'revenue'],
      [2, '+14155550142', 42.5, 'revenue'],
    ]);
    expect(buyers[1]!.record.buyer_conversions_schedule).toEqual([]);
  });

  it('leaves an offer without bidders as it was', () => {
    expect(withBids([fixed], {})).toEqual([fixed]);
    expect(withBids([fixed, bidder(2)], {}).map((buyer) => buyer.record)).toEqual([fixed.record]);
  });

  it('keeps the best bids only on a call', () => {
    const many = Object.fromEntries(Array.from({ length: KEPT_BIDS + 5 }, (_, index) => [String(index + 1), bid(index + 1, index + 1)]));
    const kept = keptBids(many);
    expect(Object.keys(kept)).toHaveLength(KEPT_BIDS);
    expect(Math.min(...Object.values(kept).map((placed) => placed.amount))).toBe(6);
  });

  it('keeps live bids only, and orders answers best first, stable among equals', () => {
    expect(Object.keys(liveBids({ '2': bid(2, 1, '2020-01-01T00:00:00Z'), '3': bid(3, 1) }, new Date('2026-01-01T00:00:00Z')))).toEqual(['3']);
    expect(bestFirst([{ id: 1, bid: 10 }, { id: 2, bid: null }, { id: 3, bid: 30 }, { id: 4, bid: 10 }]).map((row) => row.id)).toEqual([3, 1, 4, 2]);
  });
});

describe('report rows by buyer', () => {
  it('adds pings, bids, wins and win rate, with rows for buyers only asked', () => {
    const rows = withBidFigures([{ value: '1' }, { value: 'none' }], new Map([[1, { pings: 4, bids: 3, wins: 1 }], [7, { pings: 2, bids: 0, wins: 0 }]]), (value) => ({ value }));
    expect(rows).toEqual([
      { value: '1', pings: 4, bids: 3, wins: 1, win_rate: 0.3333 },
      { value: 'none', pings: 0, bids: 0, wins: 0, win_rate: 0 },
      { value: '7', pings: 2, bids: 0, wins: 0, win_rate: 0 },
    ]);
  });
});

describe('the local bidding adapter', () => {
  it('answers from the URL query as npm run bidder does', async () => {
    const { LocalBidders } = await import('../../shared/local/local-bidders.js');
    const port = new LocalBidders();
    const ask = (url: string, timeoutMs = 800) => port.ask({ url, method: 'POST', headers: {}, body: '{}', timeoutMs });
    expect(readBidAnswer(settings(), await ask('http://bidder.local/?bid=42.5&number=%2B14155550142'))).toMatchObject({ ok: true, amount: 42.5, number: '+14155550142' });
    expect(readBidAnswer(settings(), await ask('http://bidder.local/?reject=1'))).toMatchObject({ ok: false, reason: 'rejected' });
    expect(readBidAnswer(settings(), await ask('http://bidder.local/?delay_ms=50', 5))).toMatchObject({ ok: false, reason: 'timeout' });
  });
});
