import { parse as parseCsv } from 'csv-parse/sync';
import { beforeEach, describe, expect, it } from 'vitest';
import { createTestCompany, type TestCompany } from '../fixtures/company.js';
import { call, type ApiReply, useGateway } from '../fixtures/gateway.js';
import { COMMON_COLUMNS, OFFER_CONVERSION_COLUMNS } from '../fixtures/reference.js';

/**
 * The list parameters every engine-served list shares (api-reference.md, "Parameters shared by
 * list endpoints"), exercised through the local gateway on offers (order values, CSV), offer
 * conversions (a filter, serializers, CSV, no `order`) and webhook manual fires (writable
 * created_at, for the date ranges).
 */
const gateway = useGateway();
let company: TestCompany;
let other: TestCompany;

beforeEach(async () => {
  // Fresh companies per test: ids start at 1 and counts at 0.
  company = await createTestCompany('list');
  other = await createTestCompany('list-other');
});

type Row = Record<string, any>;

const OFFER_COLUMNS = [...COMMON_COLUMNS, 'company_id', 'name', 'context_menu_name', 'description', 'time_zone', 'lead_token', 'offer_token', 'buyer_ids', 'buyer_group_ids', 'whisper_sound_file_id', 'hold_sound_playlist_id'];
const CONVERSION_COLUMNS = OFFER_CONVERSION_COLUMNS;

async function get(owner: TestCompany, path: string): Promise<ApiReply> {
  return call(gateway, { path, authorization: owner.authorization });
}

async function post(owner: TestCompany, path: string, json: Record<string, unknown>): Promise<Row> {
  const reply = await call(gateway, { method: 'POST', path, authorization: owner.authorization, json });
  expect(reply.status, `${path} ${reply.text}`).toBe(200);
  const root = Object.keys(reply.body).find((key) => !['status', 'errors', 'checksum', 'metadata', 'associations'].includes(key))!;
  return reply.body[root] as Row;
}

function createOffer(owner: TestCompany, name: string, description?: string): Promise<Row> {
  return post(owner, '/api/v1/offers', { name, ...(description === undefined ? {} : { description }) });
}

/** Offers named `${prefix} 01`, `${prefix} 02`, ... created one after another (ids 1..count). */
async function createOffers(owner: TestCompany, count: number, prefix = 'Offer'): Promise<Row[]> {
  const created: Row[] = [];
  for (let i = 1; i <= count; i++) created.push(await createOffer(owner, `${prefix} ${String(i).padStart(2, '0')}`));
  return created;
}

function createConversion(owner: TestCompany, offerId: number, fields: Record<string, unknown> = {}): Promise<Row> {
  return post(owner, '/api/v1/offer_conversions', { name: 'Payout', duration: 60, duplicate_timeframe: 3600, offer_id: offerId, ...fields });
}

function createFire(owner: TestCompany, createdAt: string): Promise<Row> {
  return post(owner, '/api/v1/webhook_manual_fires', { created_at: createdAt });
}

/** A successful list's records. */
async function listOf(owner: TestCompany, path: string, root: string): Promise<Row[]> {
  const reply = await get(owner, path);
  expect(reply.status, `${path} ${reply.text}`).toBe(200);
  return reply.body[root] as Row[];
}

function ids(rows: readonly Row[]): number[] {
  return rows.map((row) => row.id as number);
}

function range(from: number, to: number): number[] {
  const out: number[] = [];
  if (from <= to) for (let i = from; i <= to; i++) out.push(i);
  else for (let i = from; i >= to; i--) out.push(i);
  return out;
}

const q = encodeURIComponent;

/** How the reference writes a JSON value into a CSV field: blank for null, JSON for lists and hashes. */
function csvCell(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

function readCsv(text: string): string[][] {
  return parseCsv(text) as string[][];
}

/** The CSV rows equal the JSON rows of the same query, column by column. */
function expectCsvMatchesJson(csvText: string, columns: readonly string[], jsonRows: readonly Row[]): void {
  const [header, ...rows] = readCsv(csvText);
  expect(header).toEqual(columns);
  expect(rows).toHaveLength(jsonRows.length);
  rows.forEach((row, index) => {
    expect(row, `row ${index}`).toEqual(columns.map((column) => csvCell(jsonRows[index]![column])));
  });
}

/** Follows `metadata.next_cursor` from `cursor=-1` until it is 0; returns every page's ids. */
async function walkCursor(owner: TestCompany, path: string, root: string): Promise<{ pages: number[][]; metadata: Row[] }> {
  const pages: number[][] = [];
  const metadata: Row[] = [];
  let cursor: string | number = '-1';
  const separator = path.includes('?') ? '&' : '?';
  for (let guard = 0; guard < 50; guard++) {
    const reply = await get(owner, `${path}${separator}cursor=${q(String(cursor))}`);
    expect(reply.status, reply.text).toBe(200);
    pages.push(ids(reply.body[root]));
    metadata.push(reply.body.metadata);
    cursor = reply.body.metadata.next_cursor;
    if (cursor === 0) return { pages, metadata };
    expect(typeof cursor).toBe('string');
  }
  throw new Error('cursor walk did not end');
}

describe('ids', () => {
  it('filters by ids given as ids[]=, as a comma list and as a JSON array', async () => {
    const [a, , c, d] = await createOffers(company, 4);
    await createOffers(other, 4);
    for (const query of [`ids[]=${a!.id}&ids[]=${c!.id}`, `ids=${a!.id},${c!.id}`, `ids=${q(JSON.stringify([a!.id, c!.id]))}`, `ids=${q(`${a!.id}, ${c!.id}`)}`]) {
      const reply = await get(company, `/api/v1/offers?${query}`);
      expect(reply.status, query).toBe(200);
      expect(reply.body.offers.map((o: Row) => [o.id, o.name]), query).toEqual([
        [a!.id, a!.name],
        [c!.id, c!.name],
      ]);
      expect(reply.body.metadata.total_count, query).toBe(2);
    }
    const single = await listOf(company, `/api/v1/offers?ids=${d!.id}`, 'offers');
    expect(ids(single)).toEqual([d!.id]);
  });

  it('returns only the caller\'s records for the ids and skips ids that do not exist', async () => {
    const [mine] = await createOffers(company, 1, 'Mine');
    await createOffers(other, 3, 'Theirs');
    const rows = await listOf(company, '/api/v1/offers?ids=1,2,3,99', 'offers');
    expect(rows.map((o) => [o.id, o.name])).toEqual([[mine!.id, 'Mine 01']]);
  });

  it('combines ids with a resource filter', async () => {
    const offerA = await createOffer(company, 'A');
    const offerB = await createOffer(company, 'B');
    const c1 = await createConversion(company, offerA.id);
    const c2 = await createConversion(company, offerB.id);
    const c3 = await createConversion(company, offerA.id);
    const rows = await listOf(company, `/api/v1/offer_conversions?ids=${c1.id},${c2.id},${c3.id}&offer_id=${offerA.id}`, 'offer_conversions');
    expect(ids(rows)).toEqual([c1.id, c3.id]);
  });

  it.each([
    ['a word in a comma list', 'ids=1,x'],
    ['a word in a bracket list', 'ids[]=1&ids[]=abc'],
    ['zero', 'ids=0'],
    ['a negative id', 'ids=-3'],
    ['a fraction', 'ids=1.5'],
    ['a string in a JSON array', `ids=${q('[1,"two"]')}`],
    ['a hash', 'ids[a]=1'],
  ])('rejects %s with 422 on ids', async (_label, query) => {
    await createOffers(company, 2);
    const reply = await get(company, `/api/v1/offers?${query}`);
    expect(reply.status).toBe(422);
    expect(reply.body.status).toBe(422);
    const fields = Object.keys(reply.body.errors);
    expect(fields.length).toBeGreaterThan(0);
    for (const field of fields) expect(field).toMatch(/^ids(\.|$)/);
  });
});

describe('page and per_page', () => {
  it('defaults to 25 per page', async () => {
    await createOffers(company, 30);
    const first = await get(company, '/api/v1/offers');
    expect(first.body.offers).toHaveLength(25);
    expect(ids(first.body.offers)).toEqual(range(1, 25));
    expect(first.body.metadata).toEqual({ root: 'offers', total_count: 30, page: 1, per_page: 25, total_pages: 2 });
    const second = await get(company, '/api/v1/offers?page=2');
    expect(ids(second.body.offers)).toEqual(range(26, 30));
    expect(second.body.metadata).toEqual({ root: 'offers', total_count: 30, page: 2, per_page: 25, total_pages: 2 });
  });

  it.each([
    ['id order (reads up to the page)', ''],
    ['descending id order', '&order_dir=desc'],
    ['name order (sorts the whole set)', '&order=name&order_dir=desc'],
    ['a filter (filters the whole set)', `&fulltext=${q('offer')}`],
  ])('pages through every record exactly once with per_page=7 in %s', async (_label, extra) => {
    await createOffers(company, 30);
    await createOffers(other, 5);
    const seen: number[] = [];
    for (let page = 1; page <= 5; page++) {
      const reply = await get(company, `/api/v1/offers?per_page=7&page=${page}${extra}`);
      expect(reply.status, reply.text).toBe(200);
      expect(reply.body.offers).toHaveLength(page < 5 ? 7 : 2);
      expect(reply.body.metadata).toEqual({ root: 'offers', total_count: 30, page, per_page: 7, total_pages: 5 });
      seen.push(...ids(reply.body.offers));
    }
    expect(new Set(seen).size).toBe(seen.length);
    expect([...seen].sort((a, b) => a - b)).toEqual(range(1, 30));
    const past = await get(company, `/api/v1/offers?per_page=7&page=6${extra}`);
    expect(past.body.offers).toEqual([]);
    expect(past.body.metadata).toMatchObject({ total_count: 30, page: 6, total_pages: 5 });
  });

  it('pages offer conversions (default sort sortable_order, then id) without gaps or repeats', async () => {
    const offer = await createOffer(company, 'Offer');
    const orders = [3, 1, 2, 1, 3, 2, 1, 2, 3, 1, 2];
    for (const sortable_order of orders) await createConversion(company, offer.id, { sortable_order });
    const seen: number[] = [];
    for (let page = 1; page <= 3; page++) seen.push(...ids(await listOf(company, `/api/v1/offer_conversions?per_page=4&page=${page}`, 'offer_conversions')));
    const expected = orders
      .map((order, index) => ({ order, id: index + 1 }))
      .sort((a, b) => a.order - b.order || a.id - b.id)
      .map((row) => row.id);
    expect(seen).toEqual(expected);
  });

  it('answers an empty company with an empty page', async () => {
    const reply = await get(company, '/api/v1/offers');
    expect(reply.body.offers).toEqual([]);
    expect(reply.body.metadata).toEqual({ root: 'offers', total_count: 0, page: 1, per_page: 25, total_pages: 0 });
  });

  it('accepts per_page=500 and refuses 501', async () => {
    await createOffers(company, 3);
    const max = await get(company, '/api/v1/offers?per_page=500');
    expect(max.status).toBe(200);
    expect(max.body.offers).toHaveLength(3);
    expect(max.body.metadata.per_page).toBe(500);
    const over = await get(company, '/api/v1/offers?per_page=501');
    expect(over.status).toBe(422);
    expect(Object.keys(over.body.errors)).toEqual(['per_page']);
  });

  it.each([
    ['page=0', 'page'],
    ['page=-1', 'page'],
    ['page=abc', 'page'],
    ['page=1.5', 'page'],
    ['per_page=0', 'per_page'],
    ['per_page=ten', 'per_page'],
  ])('rejects %s with 422', async (query, field) => {
    const reply = await get(company, `/api/v1/offers?${query}`);
    expect(reply.status).toBe(422);
    expect(Object.keys(reply.body.errors)).toEqual([field]);
  });
});

describe('order and order_dir', () => {
  it('orders offers by name in both directions', async () => {
    for (const name of ['delta', 'alpha', 'charlie', 'echo', 'bravo']) await createOffer(company, name);
    const asc = await listOf(company, '/api/v1/offers?order=name', 'offers');
    expect(asc.map((o) => o.name)).toEqual(['alpha', 'bravo', 'charlie', 'delta', 'echo']);
    const explicitAsc = await listOf(company, '/api/v1/offers?order=name&order_dir=asc', 'offers');
    expect(explicitAsc.map((o) => o.name)).toEqual(['alpha', 'bravo', 'charlie', 'delta', 'echo']);
    const desc = await listOf(company, '/api/v1/offers?order=name&order_dir=desc', 'offers');
    expect(desc.map((o) => o.name)).toEqual(['echo', 'delta', 'charlie', 'bravo', 'alpha']);
    const pageTwo = await listOf(company, '/api/v1/offers?order=name&order_dir=desc&per_page=2&page=2', 'offers');
    expect(pageTwo.map((o) => o.name)).toEqual(['charlie', 'bravo']);
  });

  it('orders by id descending', async () => {
    await createOffers(company, 4);
    expect(ids(await listOf(company, '/api/v1/offers?order=id&order_dir=desc', 'offers'))).toEqual([4, 3, 2, 1]);
    expect(ids(await listOf(company, '/api/v1/offers?order_dir=desc&per_page=3&page=2', 'offers'))).toEqual([1]);
  });

  it('orders by updated_at', async () => {
    const [first, second, third] = await createOffers(company, 3);
    const renamed = await call(gateway, { method: 'PUT', path: `/api/v1/offers/${first!.id}`, authorization: company.authorization, json: { name: 'Renamed' } });
    expect(renamed.status).toBe(200);
    const rows = await listOf(company, '/api/v1/offers?order=updated_at&order_dir=desc', 'offers');
    expect(ids(rows)[0]).toBe(first!.id);
    expect(ids(rows).sort()).toEqual([first!.id, second!.id, third!.id].sort());
  });

  it('rejects an order it does not know and an order_dir other than asc/desc', async () => {
    const unknown = await get(company, '/api/v1/offers?order=lead_token');
    expect(unknown.status).toBe(422);
    expect(Object.keys(unknown.body.errors)).toEqual(['order']);
    expect(unknown.body.errors.order[0]).toMatch(/^is not included in the list/);
    const direction = await get(company, '/api/v1/offers?order=name&order_dir=down');
    expect(direction.status).toBe(422);
    expect(Object.keys(direction.body.errors)).toEqual(['order_dir']);
  });

  it('ignores order on offer conversions, which have no order parameter: sortable_order, then id', async () => {
    const offer = await createOffer(company, 'Offer');
    const made = [
      await createConversion(company, offer.id, { name: 'a', sortable_order: 2 }),
      await createConversion(company, offer.id, { name: 'b', sortable_order: 1 }),
      await createConversion(company, offer.id, { name: 'c', sortable_order: 2 }),
      await createConversion(company, offer.id, { name: 'd', sortable_order: 0 }),
    ];
    const expected = [made[3]!.id, made[1]!.id, made[0]!.id, made[2]!.id];
    for (const query of ['', '?order=name', '?order=bogus', '?order=id']) {
      const reply = await get(company, `/api/v1/offer_conversions${query}`);
      expect(reply.status, query).toBe(200);
      expect(ids(reply.body.offer_conversions), query).toEqual(expected);
    }
  });
});

describe('created_at_from, created_at_to and time_zone', () => {
  /** Fires at 04:30, 05:30 and 06:30 UTC on 2026-03-01 (23:30, 00:30, 01:30 in New York, UTC-5). */
  async function threeFires(owner: TestCompany): Promise<Row[]> {
    return [await createFire(owner, '2026-03-01 04:30:00 +0000'), await createFire(owner, '2026-03-01 05:30:00 +0000'), await createFire(owner, '2026-03-01 06:30:00 +0000')];
  }

  it('stores the written created_at', async () => {
    const [first] = await threeFires(company);
    expect(first!.created_at).toBe('2026-03-01T04:30:00.000+00:00');
  });

  it.each([
    ['an IANA name', 'America/New_York'],
    ['a Rails name', 'Eastern Time (US & Canada)'],
  ])('reads a time without offset in time_zone given as %s', async (_label, zone) => {
    const fires = await threeFires(company);
    const rows = await listOf(company, `/api/v1/webhook_manual_fires?time_zone=${q(zone)}&created_at_from=${q('2026-03-01 00:00:00')}`, 'webhook_manual_fires');
    expect(ids(rows)).toEqual([fires[1]!.id, fires[2]!.id]);
    const upTo = await listOf(company, `/api/v1/webhook_manual_fires?time_zone=${q(zone)}&created_at_to=${q('2026-03-01 00:00:00')}`, 'webhook_manual_fires');
    expect(ids(upTo)).toEqual([fires[0]!.id]);
  });

  it('reads a time without offset and without time_zone as UTC', async () => {
    const fires = await threeFires(company);
    const rows = await listOf(company, `/api/v1/webhook_manual_fires?created_at_from=${q('2026-03-01 05:00:00')}`, 'webhook_manual_fires');
    expect(ids(rows)).toEqual([fires[1]!.id, fires[2]!.id]);
    const early = await listOf(company, `/api/v1/webhook_manual_fires?created_at_from=${q('2026-03-01 00:00:00')}`, 'webhook_manual_fires');
    expect(ids(early)).toEqual(ids(fires));
  });

  it('lets an explicit offset win over time_zone', async () => {
    const fires = await threeFires(company);
    const utc = await listOf(company, `/api/v1/webhook_manual_fires?time_zone=America%2FNew_York&created_at_from=${q('2026-03-01 00:00:00 +0000')}`, 'webhook_manual_fires');
    expect(ids(utc)).toEqual(ids(fires));
    const utcFive = await listOf(company, `/api/v1/webhook_manual_fires?time_zone=America%2FNew_York&created_at_from=${q('2026-03-01 05:00:00 +0000')}`, 'webhook_manual_fires');
    expect(ids(utcFive)).toEqual([fires[1]!.id, fires[2]!.id]);
    const negative = await listOf(company, `/api/v1/webhook_manual_fires?created_at_from=${q('2026-02-28 23:45:00 -0500')}`, 'webhook_manual_fires');
    expect(ids(negative)).toEqual([fires[1]!.id, fires[2]!.id]);
  });

  it('accepts a +ZZZZ offset whose unescaped + arrived as a space', async () => {
    const fires = await threeFires(company);
    // `+` in a query string decodes to a space; the offset must still be read as +0000, not dropped.
    const rows = await listOf(company, '/api/v1/webhook_manual_fires?time_zone=America/New_York&created_at_from=2026-03-01%2005:00:00%20+0000', 'webhook_manual_fires');
    expect(ids(rows)).toEqual([fires[1]!.id, fires[2]!.id]);
  });

  it('applies both bounds', async () => {
    const fires = await threeFires(company);
    const rows = await listOf(
      company,
      `/api/v1/webhook_manual_fires?created_at_from=${q('2026-03-01 05:00:00 +0000')}&created_at_to=${q('2026-03-01 06:00:00 +0000')}`,
      'webhook_manual_fires',
    );
    expect(ids(rows)).toEqual([fires[1]!.id]);
    expect((await get(company, `/api/v1/webhook_manual_fires?created_at_from=${q('2026-03-01 05:00:00 +0000')}&created_at_to=${q('2026-03-01 06:00:00 +0000')}`)).body.metadata.total_count).toBe(1);
  });

  it('reads each end of a range across the daylight-saving change with its own offset', async () => {
    // 2026-03-08 in New York: 01:59:59 EST (UTC-5) is followed by 03:00:00 EDT (UTC-4).
    const fires = [
      await createFire(company, '2026-03-08 05:30:00 +0000'), // 00:30 EST
      await createFire(company, '2026-03-08 06:30:00 +0000'), // 01:30 EST
      await createFire(company, '2026-03-08 07:30:00 +0000'), // 03:30 EDT
      await createFire(company, '2026-03-08 08:30:00 +0000'), // 04:30 EDT
    ];
    // 01:00 EST = 06:00Z and 03:45 EDT = 07:45Z; one offset for both ends would take in 05:30Z or 08:30Z.
    const rows = await listOf(
      company,
      `/api/v1/webhook_manual_fires?time_zone=America%2FNew_York&created_at_from=${q('2026-03-08 01:00:00')}&created_at_to=${q('2026-03-08 03:45:00')}`,
      'webhook_manual_fires',
    );
    expect(ids(rows)).toEqual([fires[1]!.id, fires[2]!.id]);
  });

  it('reads a date-only bound as midnight in time_zone', async () => {
    const fires = await threeFires(company);
    const ny = await listOf(company, '/api/v1/webhook_manual_fires?time_zone=America%2FNew_York&created_at_from=2026-03-01', 'webhook_manual_fires');
    expect(ids(ny)).toEqual([fires[1]!.id, fires[2]!.id]);
    const kolkata = await listOf(company, '/api/v1/webhook_manual_fires?time_zone=Asia%2FKolkata&created_at_to=2026-03-01', 'webhook_manual_fires');
    expect(kolkata).toEqual([]); // midnight in Kolkata is 18:30Z the day before
  });

  it('filters offers created now by a range around now', async () => {
    const before = new Date(Date.now() - 60_000).toISOString();
    await createOffers(company, 2);
    const after = new Date(Date.now() + 60_000).toISOString();
    expect(await listOf(company, `/api/v1/offers?created_at_from=${q(before)}&created_at_to=${q(after)}`, 'offers')).toHaveLength(2);
    expect(await listOf(company, `/api/v1/offers?created_at_from=${q(after)}`, 'offers')).toEqual([]);
    expect(await listOf(company, `/api/v1/offers?created_at_to=${q(before)}`, 'offers')).toEqual([]);
  });

  it.each([
    ['created_at_from', '2026-02-30 00:00:00'],
    ['created_at_from', 'yesterday'],
    ['created_at_from', '2026-03-01 25:00:00'],
    ['created_at_to', '2026-03-01 00:00:00 +9900'],
    ['created_at_to', '03/01/2026'],
  ])('rejects an invalid time in %s (%s) with 422', async (field, value) => {
    const reply = await get(company, `/api/v1/webhook_manual_fires?${field}=${q(value)}`);
    expect(reply.status).toBe(422);
    expect(Object.keys(reply.body.errors)).toEqual([field]);
  });

  it.each(['Mars/Olympus_Mons', 'EST5', 'local', 'eastern time (us & canada)'])('rejects the time zone %s with 422', async (zone) => {
    const reply = await get(company, `/api/v1/webhook_manual_fires?time_zone=${q(zone)}&created_at_from=${q('2026-03-01 00:00:00')}`);
    expect(reply.status).toBe(422);
    expect(Object.keys(reply.body.errors)).toEqual(['time_zone']);
  });
});

describe('time zone of the output', () => {
  it('shows times with the offset of time_zone', async () => {
    const fire = await createFire(company, '2026-03-01 04:30:00 +0000');
    for (const zone of ['Asia/Kolkata', 'Kolkata', 'New Delhi']) {
      const [row] = await listOf(company, `/api/v1/webhook_manual_fires?time_zone=${q(zone)}`, 'webhook_manual_fires');
      expect(row!.created_at, zone).toBe('2026-03-01T10:00:00.000+05:30');
      expect(row!.id).toBe(fire.id);
    }
    const [ny] = await listOf(company, '/api/v1/webhook_manual_fires?time_zone=America%2FNew_York', 'webhook_manual_fires');
    expect(ny!.created_at).toBe('2026-02-28T23:30:00.000-05:00');
    const [utc] = await listOf(company, '/api/v1/webhook_manual_fires', 'webhook_manual_fires');
    expect(utc!.created_at).toBe('2026-03-01T04:30:00.000+00:00');
  });

  it('shows every time column of offers in time_zone, for the same instants', async () => {
    await createOffers(company, 1);
    const [utc] = await listOf(company, '/api/v1/offers', 'offers');
    const [india] = await listOf(company, '/api/v1/offers?time_zone=Asia%2FKolkata', 'offers');
    for (const column of ['created_at', 'updated_at', 'user_updated_at']) {
      expect(india![column], column).toMatch(/\+05:30$/);
      expect(Date.parse(india![column]), column).toBe(Date.parse(utc![column]));
    }
    expect(india!.deleted_at).toBeNull();
  });
});

describe('fulltext', () => {
  it('matches name or description, case-insensitively, as a substring', async () => {
    const solar = await createOffer(company, 'Solar Panels');
    const insurance = await createOffer(company, 'Home Insurance', 'For SOLAR-powered homes');
    await createOffer(company, 'Debt Relief', 'Consolidation');
    await createOffer(other, 'Solar Theirs');
    expect(ids(await listOf(company, '/api/v1/offers?fulltext=solar', 'offers'))).toEqual([solar.id, insurance.id]);
    expect(ids(await listOf(company, '/api/v1/offers?fulltext=ANEL', 'offers'))).toEqual([solar.id]);
    expect(ids(await listOf(company, `/api/v1/offers?fulltext=${q('-powered h')}`, 'offers'))).toEqual([insurance.id]);
    expect(await listOf(company, '/api/v1/offers?fulltext=nothing-like-this', 'offers')).toEqual([]);
    const counted = await get(company, '/api/v1/offers?fulltext=HOME');
    expect(counted.body.metadata).toMatchObject({ total_count: 1, total_pages: 1 });
  });

  it('returns everything for a blank fulltext', async () => {
    await createOffers(company, 3);
    expect(await listOf(company, '/api/v1/offers?fulltext=', 'offers')).toHaveLength(3);
    expect(await listOf(company, '/api/v1/offers?fulltext=%20%20', 'offers')).toHaveLength(3);
  });

  it('searches offer conversion names', async () => {
    const offer = await createOffer(company, 'Offer');
    const gold = await createConversion(company, offer.id, { name: 'Gold tier' });
    await createConversion(company, offer.id, { name: 'Silver tier' });
    expect(ids(await listOf(company, '/api/v1/offer_conversions?fulltext=GOLD', 'offer_conversions'))).toEqual([gold.id]);
  });
});

describe('columns', () => {
  it('limits the keys to exactly the columns asked, in the order asked', async () => {
    const [offer] = await createOffers(company, 1);
    const rows = await listOf(company, '/api/v1/offers?columns=name,id,created_at', 'offers');
    expect(rows).toHaveLength(1);
    expect(Object.keys(rows[0]!)).toEqual(['name', 'id', 'created_at']);
    expect(rows[0]).toEqual({ name: offer!.name, id: offer!.id, created_at: offer!.created_at });
  });

  it('accepts columns as a bracket list and with spaces', async () => {
    await createOffers(company, 1);
    const bracket = await listOf(company, '/api/v1/offers?columns[]=uuid&columns[]=name', 'offers');
    expect(Object.keys(bracket[0]!)).toEqual(['uuid', 'name']);
    const spaced = await listOf(company, `/api/v1/offers?columns=${q('time_zone, id')}`, 'offers');
    expect(Object.keys(spaced[0]!)).toEqual(['time_zone', 'id']);
  });

  it('leaves out the nested association objects of offer conversions', async () => {
    const offer = await createOffer(company, 'Offer');
    await createConversion(company, offer.id);
    const [full] = await listOf(company, '/api/v1/offer_conversions', 'offer_conversions');
    expect(full!.offer).toEqual({ id: offer.id, name: 'Offer' });
    const [limited] = await listOf(company, '/api/v1/offer_conversions?columns=offer_id,name', 'offer_conversions');
    expect(limited).toEqual({ offer_id: offer.id, name: 'Payout' });
  });

  it('shows every column of the reference by default, in order', async () => {
    await createOffers(company, 1);
    const offer = await createOffer(company, 'Offer');
    await createConversion(company, offer.id);
    const [offerRow] = await listOf(company, '/api/v1/offers', 'offers');
    expect(Object.keys(offerRow!)).toEqual(OFFER_COLUMNS);
    const [grid] = await listOf(company, '/api/v1/offer_conversions?serializer=offer_conversion_grid', 'offer_conversions');
    expect(Object.keys(grid!)).toEqual(CONVERSION_COLUMNS);
  });

  it('names an unknown column in a 422', async () => {
    const reply = await get(company, '/api/v1/offers?columns=id,secret_sauce,name');
    expect(reply.status).toBe(422);
    expect(reply.body.errors).toEqual({ columns: ['unknown column secret_sauce'] });
    const two = await get(company, '/api/v1/offer_conversions?columns=target_url,id,lead_token');
    expect(two.status).toBe(422);
    expect(two.body.errors).toEqual({ columns: ['unknown column target_url, lead_token'] });
  });
});

describe('root', () => {
  it('returns the bare array with root=false', async () => {
    await createOffers(company, 3);
    const reply = await get(company, '/api/v1/offers?root=false&per_page=2');
    expect(reply.status).toBe(200);
    expect(Array.isArray(reply.body)).toBe(true);
    expect(ids(reply.body)).toEqual([1, 2]);
    const wrapped = await get(company, '/api/v1/offers?root=true&per_page=2');
    expect(ids(wrapped.body.offers)).toEqual([1, 2]);
    expect(wrapped.body.metadata.root).toBe('offers');
  });

  it('rejects root=maybe', async () => {
    const reply = await get(company, '/api/v1/offers?root=maybe');
    expect(reply.status).toBe(422);
    expect(Object.keys(reply.body.errors)).toEqual(['root']);
    expect(reply.body.errors.root[0]).toMatch(/is not a valid boolean/);
  });
});

describe('serializer', () => {
  it('allows a blank serializer on a resource without serializers and refuses a named one', async () => {
    await createOffers(company, 2);
    const blank = await get(company, '/api/v1/offers?serializer=');
    expect(blank.status).toBe(200);
    expect(blank.body.offers).toHaveLength(2);
    const named = await get(company, '/api/v1/offers?serializer=offer');
    expect(named.status).toBe(422);
    expect(Object.keys(named.body.errors)).toEqual(['serializer']);
  });

  it('serves the serializers of offer conversions: nested offer by default, flat foreign keys in the grid', async () => {
    const offer = await createOffer(company, 'Offer');
    await createConversion(company, offer.id);
    for (const query of ['', '?serializer=', '?serializer=offer_conversion']) {
      const [row] = await listOf(company, `/api/v1/offer_conversions${query}`, 'offer_conversions');
      expect(row!.offer, query).toEqual({ id: offer.id, name: 'Offer' });
      expect(row!.offer_id).toBe(offer.id);
    }
    const [grid] = await listOf(company, '/api/v1/offer_conversions?serializer=offer_conversion_grid', 'offer_conversions');
    expect(grid).not.toHaveProperty('offer');
    expect(grid!.offer_id).toBe(offer.id);
    const wrong = await get(company, '/api/v1/offer_conversions?serializer=buyer_grid');
    expect(wrong.status).toBe(422);
    expect(Object.keys(wrong.body.errors)).toEqual(['serializer']);
  });
});

describe('CSV', () => {
  const awkwardNames = ['Acme, Inc.', 'The "Best" Offer', 'Line one\nLine two', 'Mixed, "quoted"\r\nand more', 'Plain'];

  async function awkwardOffers(owner: TestCompany): Promise<void> {
    for (const [index, name] of awkwardNames.entries()) await createOffer(owner, name, index % 2 ? `desc, with "quotes", #${index}` : undefined);
  }

  it('answers format=csv and the .csv path with text/csv, every column by default', async () => {
    await awkwardOffers(company);
    const json = await listOf(company, '/api/v1/offers', 'offers');
    for (const path of ['/api/v1/offers?format=csv', '/api/v1/offers.csv']) {
      const reply = await get(company, path);
      expect(reply.status, path).toBe(200);
      expect(reply.headers.get('content-type'), path).toMatch(/^text\/csv/);
      expect(reply.headers.get('content-disposition'), path).toContain('offers.csv');
      expectCsvMatchesJson(reply.text, OFFER_COLUMNS, json);
    }
    const names = readCsv((await get(company, '/api/v1/offers.csv?columns=name')).text).slice(1).map((row) => row[0]);
    expect(names).toEqual(awkwardNames);
  });

  it('writes the selected columns in the order asked, for the same page as JSON', async () => {
    await awkwardOffers(company);
    await createOffers(company, 4);
    const query = 'columns=name,id,description,created_at&order=name&order_dir=desc&per_page=3&page=2&time_zone=Asia%2FKolkata';
    const json = await listOf(company, `/api/v1/offers?${query}`, 'offers');
    expect(json).toHaveLength(3);
    const reply = await get(company, `/api/v1/offers.csv?${query}`);
    expect(reply.status).toBe(200);
    expectCsvMatchesJson(reply.text, ['name', 'id', 'description', 'created_at'], json);
    expect(readCsv(reply.text)[1]![3]).toMatch(/\+05:30$/);
  });

  it('writes offer conversions, filtered, with lists as JSON and blanks as empty fields', async () => {
    const offerA = await createOffer(company, 'A');
    const offerB = await createOffer(company, 'B');
    await createConversion(company, offerA.id, { name: 'Calls, "qualified"', payout: '12.5', record_token_filter_list: ['state:CA|NY', 'age:>=21'] });
    await createConversion(company, offerB.id, { name: 'Other offer' });
    await createConversion(company, offerA.id, { name: 'Second\nline', revenue_percentage: '' });
    const json = await listOf(company, `/api/v1/offer_conversions?offer_id=${offerA.id}`, 'offer_conversions');
    expect(json).toHaveLength(2);
    const reply = await get(company, `/api/v1/offer_conversions?offer_id=${offerA.id}&format=csv`);
    expect(reply.status).toBe(200);
    expect(reply.headers.get('content-type')).toMatch(/^text\/csv/);
    expectCsvMatchesJson(reply.text, CONVERSION_COLUMNS, json);
    const [header, first] = readCsv(reply.text);
    expect(first![header!.indexOf('record_token_filter_data')]).toBe('["state:CA|NY","age:>=21"]');
    expect(first![header!.indexOf('revenue_percentage')]).toBe('');
    const dotCsv = await get(company, `/api/v1/offer_conversions.csv?offer_id=${offerA.id}`);
    expect(dotCsv.text).toBe(reply.text);
  });

  it('answers format=json as JSON and refuses other formats', async () => {
    await createOffers(company, 1);
    const json = await get(company, '/api/v1/offers?format=json');
    expect(json.status).toBe(200);
    expect(json.headers.get('content-type')).toMatch(/^application\/json/);
    const xml = await get(company, '/api/v1/offers?format=xml');
    expect(xml.status).toBe(422);
    expect(Object.keys(xml.body.errors)).toEqual(['format']);
  });

  it('refuses CSV on a resource without it', async () => {
    const reply = await get(company, '/api/v1/subscriptions?format=csv');
    expect(reply.status).toBe(422);
    expect(Object.keys(reply.body.errors)).toEqual(['format']);
    const path = await get(company, '/api/v1/subscriptions.csv');
    expect(path.status).toBe(404);
  });
});

describe('cursor paging', () => {
  it('walks from the newest record with cursor=-1 until next_cursor is 0, every record once', async () => {
    await createOffers(company, 10);
    await createOffers(other, 3);
    const { pages, metadata } = await walkCursor(company, '/api/v1/offers?per_page=4', 'offers');
    expect(pages).toEqual([
      [10, 9, 8, 7],
      [6, 5, 4, 3],
      [2, 1],
    ]);
    expect(metadata[0]).toMatchObject({ root: 'offers', per_page: 4, cursor: '-1', total_count: 10 });
    expect(metadata[1]!.cursor).toBe(metadata[0]!.next_cursor);
    expect(metadata[2]!.next_cursor).toBe(0);
  });

  it('ends without an empty page when the records fill the last page exactly', async () => {
    await createOffers(company, 8);
    const { pages } = await walkCursor(company, '/api/v1/offers?per_page=4', 'offers');
    expect(pages).toEqual([
      [8, 7, 6, 5],
      [4, 3, 2, 1],
    ]);
  });

  it('answers an empty company with no records and next_cursor 0', async () => {
    const reply = await get(company, '/api/v1/offers?cursor=-1');
    expect(reply.status).toBe(200);
    expect(reply.body.offers).toEqual([]);
    expect(reply.body.metadata).toMatchObject({ next_cursor: 0, total_count: 0 });
  });

  it('uses the default page size of 25 and the columns asked', async () => {
    await createOffers(company, 27);
    const reply = await get(company, '/api/v1/offers?cursor=-1&columns=id,name');
    expect(ids(reply.body.offers)).toEqual(range(27, 3));
    expect(Object.keys(reply.body.offers[0])).toEqual(['id', 'name']);
    const next = await get(company, `/api/v1/offers?cursor=${q(reply.body.metadata.next_cursor)}&columns=id`);
    expect(next.body.offers).toEqual([{ id: 2 }, { id: 1 }]);
    expect(next.body.metadata.next_cursor).toBe(0);
  });

  it('sees records created after the walk began only if they are older than the cursor', async () => {
    await createOffers(company, 4);
    const first = await get(company, '/api/v1/offers?cursor=-1&per_page=2');
    await createOffers(company, 1, 'Late');
    const second = await get(company, `/api/v1/offers?cursor=${q(first.body.metadata.next_cursor)}&per_page=2`);
    expect(ids(second.body.offers)).toEqual([2, 1]);
  });

  it('refuses a cursor changed in any one character', async () => {
    await createOffers(company, 6);
    const first = await get(company, '/api/v1/offers?cursor=-1&per_page=2');
    const cursor = first.body.metadata.next_cursor as string;
    expect(typeof cursor).toBe('string');
    const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
    const tampered = new Set<string>();
    for (let index = 0; index < cursor.length; index++) {
      const position = ALPHABET.indexOf(cursor[index]!);
      if (position < 0) continue; // the separator
      // Flip the lowest bit of the character's 6-bit value: the smallest change a forger could try,
      // and in the last character of a base64 text one that lands in the bits decoding drops.
      tampered.add(`${cursor.slice(0, index)}${ALPHABET[position ^ 1]}${cursor.slice(index + 1)}`);
    }
    tampered.add(`${cursor}=`);
    tampered.add(`${cursor.slice(0, 3)}!${cursor.slice(3)}`);
    tampered.add(`${cursor.slice(0, -3)}!${cursor.slice(-3)}`);
    tampered.add(`${cursor}.x`);
    tampered.add('garbage');
    tampered.add('0');
    for (const value of tampered) {
      const reply = await get(company, `/api/v1/offers?per_page=2&cursor=${q(value)}`);
      expect(reply.status, value).toBe(422);
      expect(Object.keys(reply.body.errors), value).toEqual(['cursor']);
    }
    const untouched = await get(company, `/api/v1/offers?per_page=2&cursor=${q(cursor)}`);
    expect(ids(untouched.body.offers)).toEqual([4, 3]);
  });

  it('refuses another company\'s cursor', async () => {
    await createOffers(company, 6);
    await createOffers(other, 6);
    const mine = await get(company, '/api/v1/offers?cursor=-1&per_page=2');
    const reply = await get(other, `/api/v1/offers?per_page=2&cursor=${q(mine.body.metadata.next_cursor)}`);
    expect(reply.status).toBe(422);
    expect(Object.keys(reply.body.errors)).toEqual(['cursor']);
  });

  it('refuses a cursor of another resource', async () => {
    await createOffers(company, 6);
    for (let i = 0; i < 6; i++) await post(company, '/api/v1/traffic_sources', { name: `Source ${i}` });
    const offers = await get(company, '/api/v1/offers?cursor=-1&per_page=2');
    const reply = await get(company, `/api/v1/traffic_sources?per_page=2&cursor=${q(offers.body.metadata.next_cursor)}`);
    expect(reply.status).toBe(422);
    expect(Object.keys(reply.body.errors)).toEqual(['cursor']);
  });

  it('pages a filtered list: only matching records, each once', async () => {
    const offerA = await createOffer(company, 'A');
    const offerB = await createOffer(company, 'B');
    const matching: number[] = [];
    for (let i = 0; i < 15; i++) {
      const conversion = await createConversion(company, i % 3 === 0 ? offerA.id : offerB.id, { name: `Payout ${i}` });
      if (i % 3 === 0) matching.push(conversion.id);
    }
    const { pages, metadata } = await walkCursor(company, `/api/v1/offer_conversions?offer_id=${offerA.id}&per_page=2`, 'offer_conversions');
    expect(pages.flat()).toEqual([...matching].reverse());
    expect(pages.map((page) => page.length)).toEqual([2, 2, 1]);
    expect(metadata[0]).not.toHaveProperty('total_count');
    for (const page of pages) expect(page.length).toBeLessThanOrEqual(2);
    const none = await walkCursor(company, '/api/v1/offer_conversions?offer_id=999&per_page=2', 'offer_conversions');
    expect(none.pages).toEqual([[]]);
  });

  it('pages a fulltext-filtered list of offers', async () => {
    for (let i = 1; i <= 9; i++) await createOffer(company, i % 2 ? `Solar ${i}` : `Wind ${i}`);
    const { pages } = await walkCursor(company, '/api/v1/offers?fulltext=solar&per_page=2', 'offers');
    expect(pages).toEqual([[9, 7], [5, 3], [1]]);
  });

  it('keeps the ids filter when paging with a cursor', async () => {
    await createOffers(company, 8);
    const { pages } = await walkCursor(company, '/api/v1/offers?ids=2,5,7,8&per_page=2', 'offers');
    expect(pages.flat()).toEqual([8, 7, 5, 2]);
  });
});
