import { recordCharge } from '../reporting/charges.js';
import { createDataProvider, missingDataProvider } from '../adapters/data-provider.js';
import { getRecord } from '../db/records.js';
import { ValidationError } from '../http/errors.js';
import type { DataType } from '../ports/data-provider.js';
import type { HookContext } from '../resources/define.js';
import { chargeKindOf, dataAppendCharge, DATA_APPEND_PRICES } from './prices.js';

/**
 * A data append's request to the provider, made once every check has passed and just before
 * the record is written: the types asked for (its own and its group's), the provider's answer
 * and the price. Without a provider: 422 naming the setting, nothing written or charged.
 */
export async function acquire(context: HookContext, draft: { record: Record<string, unknown> }) {
  const missing = missingDataProvider();
  if (missing) throw new ValidationError({ base: [missing] });
  const provider = createDataProvider()!;
  const types = new Set((draft.record.data_types as DataType[] | null) ?? []);
  const groupId = draft.record.data_append_group_id;
  if (typeof groupId === 'number') {
    const group = await getRecord(context.companyId, 'data_append_groups', groupId);
    for (const type of (group?.data_types as DataType[] | undefined) ?? []) types.add(type);
  }
  const dataTypes = [...types];
  const result = await provider.lookup(String(draft.record.caller_number), dataTypes);
  return {
    fields: {
      data_types: dataTypes,
      provider: provider.name,
      result: Object.fromEntries(dataTypes.map((type) => [type, result[type] ?? null])),
      charge: dataAppendCharge(dataTypes),
      charges: Object.fromEntries(dataTypes.map((type) => [type, DATA_APPEND_PRICES[type]])),
    },
    // The provider was asked and answered: nothing to give back when the write fails.
    release: async () => {},
  };
}

/** Charges a new data append, one charge rollup kind per data type (updates change notes only). */
export async function afterWrite(context: HookContext, change: { before?: Record<string, unknown>; after: Record<string, unknown> }): Promise<void> {
  if (change.before) return;
  for (const type of (change.after.data_types as DataType[]) ?? []) await recordCharge(context.companyId, chargeKindOf(type), DATA_APPEND_PRICES[type], context.now);
}
