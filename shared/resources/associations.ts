import { keys, type Key } from '../db/keys.js';
import { getItems, withoutKeys, type StoredRecord } from '../db/records.js';
import type { Association, ResourceDefinition } from './define.js';

/** What a client needs to show a link: the default brief form of an associated record. */
export function nameBrief(record: Record<string, unknown>): Record<string, unknown> {
  return { id: record.id, name: record.name ?? null };
}

function idsOf(record: Record<string, unknown>, association: Association): number[] {
  const value = record[association.via];
  return Array.isArray(value) ? value.filter((id): id is number => typeof id === 'number') : [];
}

/**
 * The envelope's `associations` of the records shown (a show, create, update or delete answer;
 * lists have no associations): every association's ids of every record, read with one
 * BatchGetItem for all of them (getItems splits past 100 keys), from the caller's company's
 * partitions only. Ids whose record is gone (deleted since) are left out.
 */
export async function envelopeAssociations(
  resource: ResourceDefinition,
  companyId: number,
  records: readonly Record<string, unknown>[],
): Promise<Array<Record<string, unknown> | undefined>> {
  const declared = Object.entries(resource.associations ?? {});
  if (!declared.length) return records.map(() => undefined);
  const wanted = new Map<string, Key>();
  for (const record of records) {
    for (const [, association] of declared) {
      for (const id of idsOf(record, association)) wanted.set(`${association.resource}#${id}`, keys.record(companyId, association.resource, id));
    }
  }
  const found = new Map<string, StoredRecord>();
  if (wanted.size) {
    const items = await getItems([...wanted.values()]);
    const resourceOfKey = new Map([...wanted].map(([name, key]) => [`${key.pk}|${key.sk}`, name]));
    for (const item of items) {
      const name = resourceOfKey.get(`${item.pk as string}|${item.sk as string}`);
      if (name) found.set(name, withoutKeys(item));
    }
  }
  return records.map((record) =>
    Object.fromEntries(
      declared.map(([name, association]) => [
        name,
        idsOf(record, association).flatMap((id) => {
          const target = found.get(`${association.resource}#${id}`);
          return target ? [(association.brief ?? nameBrief)(target)] : [];
        }),
      ]),
    ),
  );
}
