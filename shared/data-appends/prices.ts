import type { DataType } from '../ports/data-provider.js';

/**
 * What one data append request costs per data type asked for (the reference says only that the
 * charge depends on the type; these are this deployment's rates, in dollars, documented in
 * docs/resources.md). Each type requested is one charge of its own kind in charge_rollups.
 */
export const DATA_APPEND_PRICES: Record<DataType, number> = {
  caller_name: 0.01,
  carrier_type: 0.005,
  address: 0.02,
  demographics: 0.05,
};

export const chargeKindOf = (type: DataType) => `data_append_${type}` as const;

/** The total of a request for these types, rounded to cents' hundredths. Pure. */
export function dataAppendCharge(types: readonly DataType[]): number {
  return Math.round(types.reduce((sum, type) => sum + DATA_APPEND_PRICES[type], 0) * 10_000) / 10_000;
}
