import { createHash } from 'node:crypto';
import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from '../db/client.js';
import { keys } from '../db/keys.js';
import type { BidFacts } from './bid-request.js';
import { BID_EXPIRY } from './bid-settings.js';
import { liveBids, type PlacedBid } from './bid-ranking.js';

/**
 * A bid answers one call: the same caller and tokens asking again (a ping, then the call; a
 * carrier retrying) before the bid lapses get it again instead of a new ask (docs/rtb.md,
 * "Caching"). One item per company and hash of caller, offer, traffic source and tokens, holding
 * each buyer's bid: one GetItem before a round, one UpdateItem after it, however many buyers.
 * Without a caller nothing is cached (two unknown callers are not the same call).
 */
export function bidCacheHash(facts: BidFacts): string | undefined {
  if (!facts.caller) return undefined;
  const tokens = Object.keys(facts.tokens)
    .sort()
    .map((name) => [name, facts.tokens[name]]);
  return createHash('sha256').update(JSON.stringify([facts.caller, facts.offerId, facts.trafficSourceId, tokens])).digest('base64url').slice(0, 32);
}

/** The live cached bids of these facts, by buyer id. */
export async function cachedBids(companyId: number, hash: string | undefined, now: Date): Promise<Record<string, PlacedBid>> {
  if (!hash) return {};
  const result = await db.send(new GetCommand({ TableName: tableName, Key: keys.bidCache(companyId, hash) }));
  const bids: Record<string, PlacedBid> = {};
  for (const [attribute, value] of Object.entries(result.Item ?? {})) {
    const match = /^b_(\d+)$/.exec(attribute);
    if (match && value && typeof value === 'object') bids[match[1]!] = value as PlacedBid;
  }
  return liveBids(bids, now);
}

/** Keeps new bids for the next ask of the same facts (each buyer's attribute replaced; the item expires by TTL). */
export async function cacheBids(companyId: number, hash: string | undefined, bids: readonly PlacedBid[], now: Date): Promise<void> {
  if (!hash || bids.length === 0) return;
  const names: Record<string, string> = {};
  const values: Record<string, unknown> = { ':ttl': Math.floor(now.getTime() / 1000) + BID_EXPIRY.maxSeconds + 60 };
  const sets = bids.map((bid, index) => {
    names[`#b${index}`] = `b_${bid.buyer_id}`;
    values[`:b${index}`] = bid;
    return `#b${index} = :b${index}`;
  });
  await db.send(
    new UpdateCommand({ TableName: tableName, Key: keys.bidCache(companyId, hash), UpdateExpression: `SET ${sets.join(', ')}, expires_at = :ttl`, ExpressionAttributeNames: names, ExpressionAttributeValues: values }),
  );
}
