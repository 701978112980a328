import { queryAllRecords } from '../db/records.js';
import { updateWithChangeLog } from '../resources/change-log.js';
import type { HookContext } from '../resources/define.js';
import { indexChanges, lookupsOf } from '../resources/engine.js';
import { phoneNumbers } from './phone-numbers-resource.js';

/** The ring_pools resource's behaviour: letting go of its numbers when it is deleted (its shown numbers: ring-pool-enrich.ts). */

/**
 * Takes the deleted pool's numbers out of it: each number's `ring_pool_id` and its lookup item
 * become null, and its entry in the pool's index goes, in one transaction per number, as an
 * update through the API would do.
 */
export async function afterDelete(context: HookContext, pool: Record<string, unknown>): Promise<void> {
  const members = (await queryAllRecords(context.companyId, phoneNumbers.name)).filter((number) => number.ring_pool_id === pool.id);
  const now = context.now.toISOString();
  for (const number of members) {
    const after = { ...number, ring_pool_id: null };
    await updateWithChangeLog(context, phoneNumbers.name, number, { ring_pool_id: null, updated_at: now }, {
      remove: [],
      add: [],
      refresh: lookupsOf(phoneNumbers, context.companyId, after),
    }, indexChanges(phoneNumbers, context.companyId, number, after));
  }
}
