import { tableName, type TransactItem } from './client.js';
import type { Key } from './keys.js';

/**
 * The Update of one rollup cell, for the transaction of the change it counts: atomic ADDs of the
 * `deltas` (so concurrent changes add up) and SETs of the cell's `labels` (day, hour,
 * category, value...), which a report reads back without parsing the key.
 */
export function rollupCellUpdate(key: Key, deltas: Record<string, number>, labels: Record<string, string>): TransactItem {
  const names: Record<string, string> = {};
  const values: Record<string, unknown> = {};
  const adds = Object.entries(deltas).map(([field, amount], index) => {
    names[`#s${index}`] = field;
    values[`:s${index}`] = amount;
    return `#s${index} :s${index}`;
  });
  const sets = Object.entries(labels).map(([field, value], index) => {
    names[`#l${index}`] = field;
    values[`:l${index}`] = value;
    return `#l${index} = :l${index}`;
  });
  return {
    Update: {
      TableName: tableName,
      Key: key,
      UpdateExpression: `${adds.length ? `ADD ${adds.join(', ')} ` : ''}SET ${sets.join(', ')}`,
      ExpressionAttributeNames: names,
      ExpressionAttributeValues: values,
    },
  };
}
