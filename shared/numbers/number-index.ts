import { keys, padId } from '../db/keys.js';
import { tableDesign } from '../db/table-design.js';

/**
 * The index entries of a tracking number (docs/table-design.md): gsi1 = the numbers of its offer,
 * gsi2 = the numbers of its ring pool. Each is sparse: a number without an offer or pool has no
 * attributes for it (an update that clears one REMOVEs them), so a Query of an offer's or pool's
 * partition returns exactly its numbers. Written by the CRUD engine from the phone_numbers
 * definition (`indexAttributes`) and by the backfill (number-index-backfill.ts). Pure.
 */
export const NUMBER_INDEX = {
  offer: tableDesign.globalIndexes[0],
  pool: tableDesign.globalIndexes[1],
} as const;

/** Every attribute the number index may store on a number (what a cleared entry removes). */
export const NUMBER_INDEX_ATTRIBUTES = Object.values(NUMBER_INDEX).flatMap((index) => [index.partitionKey, index.sortKey]);

/** The index attributes a phone_numbers record is stored with, from its offer_id and ring_pool_id. */
export function numberIndexAttributes(companyId: number, record: Record<string, unknown>): Record<string, string> {
  const id = padId(Number(record.id));
  return {
    ...(typeof record.offer_id === 'number' ? { [NUMBER_INDEX.offer.partitionKey]: keys.numbersOfOffer(companyId, record.offer_id), [NUMBER_INDEX.offer.sortKey]: id } : {}),
    ...(typeof record.ring_pool_id === 'number' ? { [NUMBER_INDEX.pool.partitionKey]: keys.numbersOfPool(companyId, record.ring_pool_id), [NUMBER_INDEX.pool.sortKey]: id } : {}),
  };
}

/**
 * What a stored phone_numbers item lacks or holds wrongly of its index entries (an item stored
 * before the index existed has none): the attributes to set and to remove, or undefined when
 * its entries are right. Pure.
 */
export function numberIndexRepair(companyId: number, item: Record<string, unknown>): { set: Record<string, string>; remove: string[] } | undefined {
  const set = numberIndexAttributes(companyId, item);
  const remove = NUMBER_INDEX_ATTRIBUTES.filter((name) => item[name] !== undefined && !(name in set));
  const wrong = Object.entries(set).some(([name, value]) => item[name] !== value);
  return wrong || remove.length ? { set, remove } : undefined;
}
