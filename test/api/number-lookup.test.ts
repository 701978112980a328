import { beforeAll, describe, expect, it, vi } from 'vitest';
import { midDayTomorrow, usePinnedClock } from '../fixtures/clock.js';
import { createTestCompany, type TestCompany } from '../fixtures/company.js';
import { call, useGateway } from '../fixtures/gateway.js';
import { createThrough } from '../fixtures/records.js';

/**
 * The number lookup of the hosted service's number-replacement script, replayed as the script
 * sends it (docs/compatibility.md, "Number replacement script"): a GET of /api/v1/numbers.json
 * with offer_key, base64 referrer_url and referrer_tokens, td_js_v and default_number, from a
 * page's origin, with credentials. The script reads number.human_number and number.plain_number.
 */
// Read when the lookup's module loads (the OpenAPI document's columns import it with the gateway):
// set before any import, a small limit to reach.
vi.hoisted(() => {
  process.env.NUMBER_LOOKUP_LIMIT_PER_MINUTE = '6';
});

const gateway = useGateway();
// One minute window for the whole file: the rate limit counts per offer and minute.
usePinnedClock(midDayTomorrow);
const PAGE = 'https://lp.example.com';
let company: TestCompany;
let fixed: { offer: Record<string, any>; first: Record<string, any>; ofSource: Record<string, any>; source: Record<string, any> };
let pooled: { offer: Record<string, any>; pool: Record<string, any>; numbers: Record<string, any>[] };

const b64 = (text: string) => Buffer.from(text, 'utf8').toString('base64');

/** The request the script makes: its parameters in the query, from the page's origin. */
function lookup(offerKey: string, tokens: Record<string, string> = {}, page = `${PAGE}/landing?utm_source=google`, origin: string | null = PAGE) {
  const query = new URLSearchParams({ offer_key: offerKey, referrer_url: b64(page), referrer_tokens: b64(new URLSearchParams(tokens).toString()), td_js_v: '0.3.6', default_number: '+18556542938' });
  return call(gateway, { method: 'GET', path: `/api/v1/numbers.json?${query.toString()}`, headers: origin ? { origin } : {} });
}

beforeAll(async () => {
  company = await createTestCompany('number-lookup');
  const offer = await createThrough(gateway, company, '/api/v1/offers', { name: 'Landing offer' });
  const source = await createThrough(gateway, company, '/api/v1/traffic_sources', { name: 'Affiliate' });
  const first = await createThrough(gateway, company, '/api/v1/phone_numbers', { offer_id: offer.id });
  const ofSource = await createThrough(gateway, company, '/api/v1/phone_numbers', { offer_id: offer.id, traffic_source_id: source.id });
  fixed = { offer, first, ofSource, source };
  const poolOffer = await createThrough(gateway, company, '/api/v1/offers', { name: 'Pool offer' });
  const pool = await createThrough(gateway, company, '/api/v1/ring_pools', { name: 'Visitors', offer_id: poolOffer.id });
  const numbers = [
    await createThrough(gateway, company, '/api/v1/phone_numbers', { offer_id: poolOffer.id, ring_pool_id: pool.id }),
    await createThrough(gateway, company, '/api/v1/phone_numbers', { offer_id: poolOffer.id, ring_pool_id: pool.id }),
  ];
  await createThrough(gateway, company, '/api/v1/visitor_token_matchers', { param_name: 'utm_source', match_value: 'google', set_tokens: 'source:google', ring_pool_id: pool.id });
  pooled = { offer: poolOffer, pool, numbers };
});

describe('GET /api/v1/numbers.json (the number-replacement script)', () => {
  it("answers the offer's number in the formats the script reads, with CORS for the page's credentialed request", async () => {
    const reply = await lookup(fixed.offer.offer_token);
    expect(reply.status, reply.text).toBe(200);
    expect(reply.headers.get('access-control-allow-origin')).toBe(PAGE);
    expect(reply.headers.get('access-control-allow-credentials')).toBe('true');
    const plain = fixed.first.number as string;
    expect(plain).toMatch(/^\+1\d{10}$/);
    expect(reply.body).toMatchObject({ status: 200, errors: {}, metadata: { root: 'number' } });
    expect(reply.body.number).toMatchObject({
      id: fixed.first.id,
      plain_number: plain,
      human_number: `(${plain.slice(2, 5)}) ${plain.slice(5, 8)}-${plain.slice(8)}`,
      dashed_number: `${plain.slice(2, 5)}-${plain.slice(5, 8)}-${plain.slice(8)}`,
      offer_id: fixed.offer.id,
      ring_pool_id: null,
    });
    // Without an Origin (a server fetching it) any origin may read it, without credentials.
    const bare = await lookup(fixed.offer.offer_token, {}, PAGE, null);
    expect(bare.headers.get('access-control-allow-origin')).toBe('*');
    expect(bare.headers.get('access-control-allow-credentials')).toBeNull();
  });

  it("shows a traffic source's number to its traffic (traffic_source_id among the script's tokens)", async () => {
    const reply = await lookup(fixed.offer.offer_token, { traffic_source_id: String(fixed.source.id) });
    expect(reply.body.number).toMatchObject({ id: fixed.ofSource.id, plain_number: fixed.ofSource.number, traffic_source_id: fixed.source.id });
  });

  it("holds a ring pool's numbers for visitors: two visitors, two numbers, each held", async () => {
    const one = await lookup(pooled.offer.offer_token);
    const two = await lookup(pooled.offer.offer_token, { lp: 'b' });
    expect([one.status, two.status]).toEqual([200, 200]);
    const shown = [one.body.number, two.body.number];
    expect(shown.map((number) => number.ring_pool_id)).toEqual([pooled.pool.id, pooled.pool.id]);
    expect(new Set(shown.map((number) => number.plain_number))).toEqual(new Set(pooled.numbers.map((number) => number.number)));
    for (const number of shown) expect(Date.parse(number.held_until)).toBeGreaterThan(midDayTomorrow().getTime());
  });

  it('refuses an unknown or missing offer_key and over-long parameters, with CORS, so the script keeps its default number', async () => {
    const unknown = await lookup('0'.repeat(32));
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({ status: 404, errors: { offer_key: ['is unknown'] } });
    expect(unknown.headers.get('access-control-allow-origin')).toBe(PAGE);
    const missing = await call(gateway, { method: 'GET', path: '/api/v1/numbers.json', headers: { origin: PAGE } });
    expect(missing.status).toBe(422);
    expect(Object.keys(missing.body.errors)).toEqual(['offer_key']);
    const long = await lookup(fixed.offer.offer_token, {}, `${PAGE}/?q=${'x'.repeat(7000)}`);
    expect(long.status).toBe(422);
    expect(Object.keys(long.body.errors)).toEqual(['referrer_url']);
    const preflight = await call(gateway, { method: 'OPTIONS', path: '/api/v1/numbers.json', headers: { origin: PAGE } });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-origin')).toBe(PAGE);
  });

  it('limits lookups per offer and minute (429 past the limit, another offer unaffected)', async () => {
    const offer = await createThrough(gateway, company, '/api/v1/offers', { name: 'Busy page' });
    await createThrough(gateway, company, '/api/v1/phone_numbers', { offer_id: offer.id });
    const statuses: number[] = [];
    for (let i = 0; i < 7; i++) statuses.push((await lookup(offer.offer_token)).status);
    expect(statuses).toEqual([200, 200, 200, 200, 200, 200, 429]);
    expect((await lookup(fixed.offer.offer_token)).status).toBe(200);
  });
});
