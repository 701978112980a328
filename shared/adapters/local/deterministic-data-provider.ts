import { createHash } from 'node:crypto';
import type { DataProviderPort, DataType } from '../../ports/data-provider.js';

const FIRST = ['Alex', 'Blair', 'Casey', 'Dana', 'Emery', 'Finley', 'Gray', 'Harper'];
const LAST = ['Smith', 'Jones', 'Garcia', 'Miller', 'Davis', 'Lopez', 'Wilson', 'Moore'];
const CITIES = [
  ['Austin', 'TX', '78701'],
  ['Denver', 'CO', '80202'],
  ['Portland', 'OR', '97201'],
  ['Columbus', 'OH', '43215'],
] as const;
const CARRIER_TYPES = ['mobile', 'landline', 'voip'] as const;

/**
 * Local and test provider: the same number always gives the same data (picked from small tables
 * by a hash of the number), so tests can assert it and `npm start` answers without an account.
 */
export class DeterministicDataProvider implements DataProviderPort {
  readonly name = 'local';

  async lookup(number: string, types: readonly DataType[]): Promise<Partial<Record<DataType, unknown>>> {
    const hash = createHash('sha256').update(number).digest();
    const pick = <T>(list: readonly T[], byte: number): T => list[hash[byte]! % list.length]!;
    const [city, state, zip] = pick(CITIES, 2);
    const values: Record<DataType, unknown> = {
      caller_name: `${pick(FIRST, 0)} ${pick(LAST, 1)}`,
      carrier_type: pick(CARRIER_TYPES, 3),
      address: { street: `${100 + (hash[4]! % 900)} Main St`, city, state, zip },
      demographics: { age_range: pick(['18-24', '25-34', '35-44', '45-54', '55-64', '65+'], 5), homeowner: hash[6]! % 2 === 0 },
    };
    return Object.fromEntries(types.map((type) => [type, values[type]]));
  }
}
