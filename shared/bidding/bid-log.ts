import { BatchWriteCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from '../db/client.js';
import { timeSortableId } from '../db/ids.js';
import { keys, padId } from '../db/keys.js';
import { withoutKeys } from '../db/records.js';

/**
 * Every ask of a bidding buyer, logged (docs/rtb.md, "Logs"): in the buyer's bid log
 * (`GET /api/v1/buyers/:id/bids`), written for all buyers of a round with BatchWriteItem (25 a
 * request, side by side), and counted per UTC hour (pings, bids, wins) for the reports by buyer.
 * No entry holds a secret: URLs and headers are logged as rendered with secrets redacted.
 */
export interface BuyerPing {
  buyer_id: number;
  buyer_name: string | null;
  /** Where the ask came from: an inbound call or a partner's ping. */
  source: 'call' | 'ping';
  call_id: number | null;
  ping_id: string | null;
  request_url: string;
  method: string;
  request_headers: Record<string, string>;
  status_code: number | null;
  latency_ms: number;
  bid: number | null;
  number: string | null;
  sip: string | null;
  bid_id: string | null;
  /** Why the bidder was left out (bid-answer.ts LEFT_OUT_REASONS), null when its bid stands. */
  reason: string | null;
  detail: string | null;
  /** When the bid lapses (ISO), null without a bid. */
  bid_expires_at: string | null;
  /** The bid was reused (a live bid of the same caller and tokens, or the ping's bid behind a post), not asked again. */
  cached: boolean;
}

export const BID_LOG_COLUMNS = [
  'id',
  'created_at',
  'buyer_id',
  'buyer_name',
  'source',
  'call_id',
  'ping_id',
  'request_url',
  'method',
  'request_headers',
  'status_code',
  'latency_ms',
  'bid',
  'number',
  'sip',
  'bid_id',
  'reason',
  'detail',
  'bid_expires_at',
] as const;

/** Bid log entries are kept this many days (DynamoDB TTL). */
export const BID_LOG_RETENTION_DAYS = 30;

function hourCell(at: Date): { day: string; hour: string } {
  const iso = at.toISOString();
  return { day: iso.slice(0, 10), hour: iso.slice(11, 13) };
}

/** Writes the round's asks (cached reuses are not asks: they are on the call's events only) and counts them. */
export async function logBuyerPings(companyId: number, pings: readonly BuyerPing[], at: Date): Promise<void> {
  const asked = pings.filter((ping) => !ping.cached);
  if (asked.length === 0) return;
  const ttl = Math.floor(at.getTime() / 1000) + BID_LOG_RETENTION_DAYS * 86_400;
  const items = asked.map((ping) => {
    const id = timeSortableId(at.getTime());
    // expires_at is the table's TTL attribute (epoch seconds); the bid's own expiry is bid_expires_at.
    return { pk: keys.buyerBids(companyId, ping.buyer_id), sk: padId(id), id, company_id: companyId, created_at: at.toISOString(), ...ping, expires_at: ttl };
  });
  const batches: Array<typeof items> = [];
  for (let start = 0; start < items.length; start += 25) batches.push(items.slice(start, start + 25));
  await Promise.all([...batches.map((batch) => writeBatch(batch)), countPings(companyId, asked, at)]);
}

async function writeBatch(items: ReadonlyArray<Record<string, unknown>>): Promise<void> {
  let requests: Array<Record<string, unknown>> | undefined = items.map((item) => ({ PutRequest: { Item: item } }));
  for (let attempt = 0; requests?.length && attempt < 8; attempt++) {
    const result = await db.send(new BatchWriteCommand({ RequestItems: { [tableName]: requests as never } }));
    requests = result.UnprocessedItems?.[tableName] as Array<Record<string, unknown>> | undefined;
    if (requests?.length) await new Promise((done) => setTimeout(done, 25 * 2 ** attempt));
  }
  if (requests?.length) throw new Error('BatchWriteItem left bid log entries unprocessed');
}

/** One UpdateItem: `p_<buyer>` pings and `b_<buyer>` bids (asks that brought a standing bid) of the hour. */
async function countPings(companyId: number, asked: readonly BuyerPing[], at: Date): Promise<void> {
  const adds = new Map<string, number>();
  for (const ping of asked) {
    adds.set(`p_${ping.buyer_id}`, (adds.get(`p_${ping.buyer_id}`) ?? 0) + 1);
    if (ping.reason === null) adds.set(`b_${ping.buyer_id}`, (adds.get(`b_${ping.buyer_id}`) ?? 0) + 1);
  }
  await addToHour(companyId, at, adds);
}

/** A bidding buyer won a call (its bid was dialed): `w_<buyer>` of the hour. */
export async function countWin(companyId: number, buyerId: number, at: Date): Promise<void> {
  await addToHour(companyId, at, new Map([[`w_${buyerId}`, 1]]));
}

async function addToHour(companyId: number, at: Date, adds: ReadonlyMap<string, number>): Promise<void> {
  const { day, hour } = hourCell(at);
  const names: Record<string, string> = {};
  const values: Record<string, number> = {};
  const parts = [...adds].map(([attribute, amount], index) => {
    names[`#a${index}`] = attribute;
    values[`:a${index}`] = amount;
    return `#a${index} :a${index}`;
  });
  await db.send(
    new UpdateCommand({
      TableName: tableName,
      Key: { pk: keys.bidStats(companyId, day), sk: hour },
      UpdateExpression: `ADD ${parts.join(', ')} SET expires_at = if_not_exists(expires_at, :ttl)`,
      ExpressionAttributeNames: names,
      ExpressionAttributeValues: { ...values, ':ttl': Math.floor(at.getTime() / 1000) + 400 * 86_400 },
    }),
  );
}

export interface BidFigures {
  pings: number;
  bids: number;
  wins: number;
}

/** Pings, bids and wins per buyer id over whole UTC hours [fromMs, toMs] (one Query per UTC day). */
export async function bidFigures(companyId: number, fromMs: number, toMs: number): Promise<Map<number, BidFigures>> {
  const figures = new Map<number, BidFigures>();
  const first = hourCell(new Date(fromMs));
  const last = hourCell(new Date(toMs));
  for (let day = Date.parse(`${first.day}T00:00:00Z`); day <= toMs; day += 86_400_000) {
    const dayText = new Date(day).toISOString().slice(0, 10);
    const low = dayText === first.day ? first.hour : '00';
    const high = dayText === last.day ? last.hour : '23';
    const result = await db.send(
      new QueryCommand({
        TableName: tableName,
        KeyConditionExpression: 'pk = :pk AND sk BETWEEN :low AND :high',
        ExpressionAttributeValues: { ':pk': keys.bidStats(companyId, dayText), ':low': low, ':high': high },
      }),
    );
    for (const item of result.Items ?? []) {
      for (const [attribute, value] of Object.entries(item)) {
        const match = /^([pbw])_(\d+)$/.exec(attribute);
        if (!match || typeof value !== 'number') continue;
        const id = Number(match[2]);
        const entry = figures.get(id) ?? { pings: 0, bids: 0, wins: 0 };
        if (match[1] === 'p') entry.pings += value;
        else if (match[1] === 'b') entry.bids += value;
        else entry.wins += value;
        figures.set(id, entry);
      }
    }
  }
  return figures;
}

/** A page of a buyer's bid log, newest first, strictly before `beforeId` when given. */
export async function bidLogPage(companyId: number, buyerId: number, limit: number, beforeId?: number): Promise<{ rows: Record<string, unknown>[]; nextBeforeId: number | null }> {
  const result = await db.send(
    new QueryCommand({
      TableName: tableName,
      KeyConditionExpression: beforeId !== undefined ? 'pk = :pk AND sk < :before' : 'pk = :pk',
      ExpressionAttributeValues: { ':pk': keys.buyerBids(companyId, buyerId), ...(beforeId !== undefined ? { ':before': padId(beforeId) } : {}) },
      ScanIndexForward: false,
      Limit: limit,
    }),
  );
  const rows = (result.Items ?? []).map((item) => {
    const record = withoutKeys(item);
    return Object.fromEntries(BID_LOG_COLUMNS.map((column) => [column, record[column] ?? null]));
  });
  return { rows, nextBeforeId: result.LastEvaluatedKey && rows.length ? Number(rows[rows.length - 1]!.id) : null };
}
