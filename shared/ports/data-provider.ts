/**
 * Data about a caller number bought from a data provider (caller name, line type, address,
 * demographics). One lookup asks for several data types at once and answers one entry per type
 * asked (null when the provider knows nothing of it). Chosen by DATA_PROVIDER
 * (shared/adapters/data-provider.ts); no provider configured means no lookups at all.
 */
export const DATA_TYPES = ['caller_name', 'carrier_type', 'address', 'demographics'] as const;
export type DataType = (typeof DATA_TYPES)[number];

export interface DataProviderPort {
  /** The provider's name, stored on each data append. */
  readonly name: string;
  lookup(number: string, types: readonly DataType[]): Promise<Partial<Record<DataType, unknown>>>;
}
