import { queryAllRecords } from '../db/records.js';
import type { HookContext } from '../resources/define.js';
import { phoneNumbers } from '../resources/routing/numbers.js';

/** A ring pool's shown numbers (its view's enricher, apart from the write hooks). */

/** `phone_number_ids` and `numbers_count` of a page of pools: one Query of the company's numbers. */
export async function enrich(context: HookContext, pools: readonly Record<string, unknown>[]) {
  const numbers = await queryAllRecords(context.companyId, phoneNumbers.name);
  const out = new Map<number, Record<string, unknown>>();
  for (const pool of pools) {
    const ids = numbers.filter((number) => number.ring_pool_id === pool.id).map((number) => number.id);
    out.set(Number(pool.id), { phone_number_ids: ids, numbers_count: ids.length });
  }
  return out;
}
