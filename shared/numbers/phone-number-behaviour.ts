import { numberProvider } from '../adapters/index.js';
import { ConflictError, ValidationError } from '../http/errors.js';
import { logger } from '../logger.js';
import { NumberUnavailableError } from '../ports/numbers.js';
import type { HookContext } from '../resources/define.js';
import { findNumber } from './lookup.js';
import { searchFreeNumbers } from './search.js';

/** The phone_numbers resource's behaviour: buying on create, releasing on delete. */

/**
 * Buys the number once the record has passed every check: the one asked for (409 when a company
 * of this deployment already holds it, before anything is bought) or the first free one of the
 * provider's search, in `area_code` when given. The engine releases it again if the write fails,
 * and asks again (next `attempt`) when a concurrent purchase took the free number first.
 */
export async function acquire(_context: HookContext, draft: { record: Record<string, unknown>; fields: Record<string, unknown>; attempt: number }) {
  const provider = numberProvider();
  let number = typeof draft.record.number === 'string' ? draft.record.number : undefined;
  if (number) {
    if (await findNumber(number)) throw new ConflictError('number');
  } else {
    const areaCode = typeof draft.fields.area_code === 'string' ? draft.fields.area_code : undefined;
    // A retry after a concurrent create took the first free number picks among a few, so racing
    // creates spread out instead of colliding again.
    const free = await searchFreeNumbers(provider, { area_code: areaCode, limit: draft.attempt + 1 });
    number = free[Math.floor(Math.random() * free.length)];
    if (!number) throw new ValidationError({ number: [areaCode ? `no number is available in area code ${areaCode}` : 'no number is available'] });
  }
  let bought;
  try {
    bought = await provider.purchase(number);
  } catch (error) {
    if (error instanceof NumberUnavailableError) throw new ValidationError({ number: ['is not available from the number provider'] });
    throw error;
  }
  const { number: boughtNumber, provider_id: providerId } = bought;
  return {
    fields: { number: boughtNumber, provider: provider.name, provider_id: providerId, status: 'active' },
    release: () => provider.release(providerId, boughtNumber),
  };
}

/**
 * Releases the number at the provider once its record (and lookup) are gone. A failed release
 * does not undo the delete: it is logged with what is needed to release the number by hand.
 */
export async function afterDelete(context: HookContext, record: Record<string, unknown>): Promise<void> {
  const provider = numberProvider();
  const details = { companyId: context.companyId, number: record.number, provider: record.provider, provider_id: record.provider_id };
  if (record.provider !== provider.name) {
    logger.warn('deleted tracking number was bought from another provider; release it there', details);
    return;
  }
  try {
    await provider.release(String(record.provider_id), String(record.number));
  } catch (error) {
    logger.error('releasing a deleted tracking number failed; release it at the provider', { ...details, error });
  }
}
