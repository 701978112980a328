import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from '../db/client.js';
import { keys } from '../db/keys.js';
import { getItems, queryAllRecords } from '../db/records.js';
import { visitorTokens, type VisitorTokenMatcher } from './inbound-tokens.js';
import { numbersOfPool } from '../numbers/lookup.js';

/**
 * Dynamic number insertion: a landing-page visitor gets one of a ring pool's numbers, held for
 * them a while with the tokens their parameters matched (visitor_token_matchers); a call to
 * that number while it is held inherits the tokens (inbound-config.ts reads the hold with one
 * GetItem). A number is free when nobody holds it or its hold has passed; when every number is
 * held, the one held longest ago is given again (the usual DNI recycling). Taking a number is a
 * conditional Put on its hold as last read, so two visitors never get the same number at once.
 */
export interface VisitorNumber {
  phone_number_id: number;
  number: string;
  ring_pool_id: number;
  tokens: Record<string, string>;
  held_until: string;
}

const MAX_TRIES = 8;

/** Undefined when the pool has no numbers. */
export async function assignVisitorNumber(companyId: number, poolId: number, params: Readonly<Record<string, string>>, holdSeconds: number, now: Date): Promise<VisitorNumber | undefined> {
  // The pool's numbers only (one Query of the number index), not every number of the company.
  const [members, matchers] = await Promise.all([numbersOfPool(companyId, poolId), queryAllRecords(companyId, 'visitor_token_matchers')]);
  if (members.length === 0) return undefined;
  const tokens = visitorTokens(matchers as unknown as VisitorTokenMatcher[], params, poolId);
  const heldUntil = new Date(now.getTime() + holdSeconds * 1000).toISOString();
  for (let attempt = 0; attempt < MAX_TRIES; attempt++) {
    const holds = new Map((await getItems(members.map((number) => keys.visitorNumberHold(companyId, String(number.number))))).map((item) => [String(item.sk), String(item.held_until ?? '')]));
    // Free numbers first (never held, then held longest ago), busy ones by how soon they free up.
    const ranked = [...members].sort((a, b) => (holds.get(String(a.number)) ?? '').localeCompare(holds.get(String(b.number)) ?? '') || a.id - b.id);
    const chosen = ranked[0]!;
    const seen = holds.get(String(chosen.number));
    try {
      await db.send(
        new PutCommand({
          TableName: tableName,
          Item: {
            ...keys.visitorNumberHold(companyId, String(chosen.number)),
            ring_pool_id: poolId,
            phone_number_id: chosen.id,
            tokens,
            held_until: heldUntil,
            expires_at: Math.floor(Date.parse(heldUntil) / 1000) + 86400,
          },
          ConditionExpression: seen === undefined ? 'attribute_not_exists(pk)' : 'held_until = :seen',
          ...(seen === undefined ? {} : { ExpressionAttributeValues: { ':seen': seen } }),
        }),
      );
      return { phone_number_id: chosen.id, number: String(chosen.number), ring_pool_id: poolId, tokens, held_until: heldUntil };
    } catch (error) {
      if (!(error instanceof ConditionalCheckFailedException)) throw error;
      // Another visitor took it meanwhile: read the holds again.
    }
  }
  throw new Error(`Ring pool ${poolId}: no number could be held`);
}
