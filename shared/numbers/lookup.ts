import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from '../db/client.js';
import { keys } from '../db/keys.js';
import { queryPages } from '../db/query.js';
import { getItems } from '../db/records.js';
import { NUMBER_INDEX } from './number-index.js';

/**
 * Reading tracking numbers for routing. A number is unique across the deployment; its global
 * lookup item (`G#phone_numbers#by_number#<E.164>`) carries the routing fields, kept in step by
 * the CRUD engine (`lookupAttributes` of the phone_numbers resource), so an incoming call finds
 * its company, offer, traffic source and pool with one GetItem.
 */
export const PHONE_NUMBERS = 'phone_numbers';

/** What routing needs to know about a tracking number. */
export interface NumberRoute {
  number: string;
  company_id: number;
  /** The phone_numbers record id. */
  id: number;
  offer_id: number | null;
  traffic_source_id: number | null;
  ring_pool_id: number | null;
}

/** The lookup item's key for a number (E.164). */
export function numberLookupKey(number: string) {
  return keys.globalLookup(PHONE_NUMBERS, 'number', number);
}

function idOrNull(value: unknown): number | null {
  return typeof value === 'number' ? value : value === null || value === undefined ? null : Number(value);
}

/** A lookup item or a phone_numbers record as a route. Pure. */
export function toNumberRoute(number: string, item: Record<string, unknown>): NumberRoute {
  return {
    number,
    company_id: Number(item.company_id),
    id: Number(item.id),
    offer_id: idOrNull(item.offer_id),
    traffic_source_id: idOrNull(item.traffic_source_id),
    ring_pool_id: idOrNull(item.ring_pool_id),
  };
}

/** The tracking number's routing fields, or undefined when no company holds it: one GetItem. */
export async function findNumber(number: string): Promise<NumberRoute | undefined> {
  const result = await db.send(new GetCommand({ TableName: tableName, Key: numberLookupKey(number) }));
  return result.Item ? toNumberRoute(number, result.Item) : undefined;
}

/** Which of these numbers some company already holds: one BatchGetItem per 100 lookups. */
export async function takenNumbers(numbers: readonly string[]): Promise<Set<string>> {
  const unique = [...new Set(numbers)];
  const byKey = new Map(unique.map((number) => [numberLookupKey(number).pk, number]));
  const items = await getItems(unique.map(numberLookupKey));
  return new Set(items.map((item) => byKey.get(String(item.pk))).filter((number): number is string => number !== undefined));
}

/**
 * The numbers one index partition lists (an offer's or a pool's: number-index.ts), in id order:
 * one Query (paged past 1 MB), reading only those numbers. The index is eventually consistent:
 * a number assigned a moment ago may be missed, or one moved away still be listed, for about a
 * second.
 */
async function numbersOfIndex(index: (typeof NUMBER_INDEX)[keyof typeof NUMBER_INDEX], partition: string): Promise<NumberRoute[]> {
  const routes: NumberRoute[] = [];
  for await (const items of queryPages({
    IndexName: index.indexName,
    KeyConditionExpression: '#pk = :pk',
    ExpressionAttributeNames: { '#pk': index.partitionKey },
    ExpressionAttributeValues: { ':pk': partition },
  })) {
    for (const item of items) routes.push(toNumberRoute(String(item.number), item));
  }
  return routes;
}

/** The company's numbers in a pool, in id order (the pool's index partition). */
export async function numbersOfPool(companyId: number, poolId: number): Promise<NumberRoute[]> {
  return numbersOfIndex(NUMBER_INDEX.pool, keys.numbersOfPool(companyId, poolId));
}

/** The company's numbers of an offer, in id order (the offer's index partition). */
export async function numbersOfOffer(companyId: number, offerId: number): Promise<NumberRoute[]> {
  return numbersOfIndex(NUMBER_INDEX.offer, keys.numbersOfOffer(companyId, offerId));
}
