import { keys, type Key } from '../db/keys.js';
import { getItems, queryAllRecords, type StoredRecord } from '../db/records.js';
import { RecentMap } from '../recent-map.js';

/**
 * One round trip for what a call step reads: its items by key in one BatchGetItem, and the small
 * configuration resources it consults (token matchers, state call limits, recording rules...).
 *
 * Most companies have none of most of those resources, and a Query of an empty partition is
 * still a request. A resource's sequence item carries its exact record count (createRecord and
 * deleteRecord move it in their own transactions). The resource's Query goes out beside the
 * BatchGetItem when this function last saw the company with records of it (or never looked);
 * otherwise its count is read by key in the BatchGetItem, and decides: a count above zero (the
 * company's first record since) is followed by the Query, one step later, and remembered.
 * Nothing read is reused across requests: only whether to ask.
 */
export interface KeyedRead {
  /** The item at `key` as read by this request, with its storage keys; undefined when absent or not asked. */
  item(key: Key): Record<string, unknown> | undefined;
  /** Every record of a resource named in `resources`, in id order. */
  rows(resource: string): StoredRecord[];
  /** Was `key` asked (found or not)? */
  asked(key: Key): boolean;
  /** Were the resource's records read (or known to be none)? */
  covers(resource: string): boolean;
}

/** Per company and resource: had records when last counted (a cost hint, see above). */
const hadRecords = new RecentMap<string, boolean>(20_000);

function remember(hint: string, value: boolean): void {
  hadRecords.set(hint, value);
}

const keyText = (key: { pk?: unknown; sk?: unknown }) => `${String(key.pk)}\n${String(key.sk)}`;

/**
 * Reads `itemKeys` (asked once each) and every record of `resources`, in one round trip when the
 * hints hold. `prior`: an earlier read of the same company in this request; what it asked is
 * taken from it, not asked again. `consistent`: the items read strongly consistent.
 */
export async function readKeyed(companyId: number, itemKeys: readonly Key[], resources: readonly string[] = [], prior?: KeyedRead, options: { consistent?: boolean } = {}): Promise<KeyedRead> {
  if (prior) {
    const fresh = await readKeyed(companyId, itemKeys.filter((key) => !prior.asked(key)), resources.filter((resource) => !prior.covers(resource)), undefined, options);
    return {
      item: (key) => (prior.asked(key) ? prior.item(key) : fresh.item(key)),
      rows: (resource) => (prior.covers(resource) ? prior.rows(resource) : fresh.rows(resource)),
      asked: (key) => prior.asked(key) || fresh.asked(key),
      covers: (resource) => prior.covers(resource) || fresh.covers(resource),
    };
  }
  const hint = (resource: string) => `${companyId}#${resource}`;
  const queried = resources.filter((resource) => hadRecords.get(hint(resource)) !== false);
  // The count decides only where no Query went out; a Query's own rows tell the rest.
  const counted = resources.filter((resource) => !queried.includes(resource));
  const countKey = (resource: string) => keys.sequence(companyId, resource);
  const unique = new Map([...itemKeys, ...counted.map(countKey)].map((key) => [keyText(key), key]));
  const [items, ...queriedRows] = await Promise.all([
    unique.size ? getItems([...unique.values()], options) : Promise.resolve([]),
    ...queried.map((resource) => queryAllRecords(companyId, resource)),
  ]);
  const byKey = new Map(items.map((item) => [keyText(item), item]));
  const rows = new Map(queried.map((resource, index) => [resource, queriedRows[index]!]));
  for (const [resource, found] of rows) remember(hint(resource), found.length > 0);
  const missed = counted.filter((resource) => {
    const count = Number(byKey.get(keyText(countKey(resource)))?.count ?? 0);
    remember(hint(resource), count > 0);
    return count > 0;
  });
  const late = await Promise.all(missed.map((resource) => queryAllRecords(companyId, resource)));
  missed.forEach((resource, index) => rows.set(resource, late[index]!));
  return {
    item: (key) => byKey.get(keyText(key)),
    rows: (resource) => rows.get(resource) ?? [],
    asked: (key) => unique.has(keyText(key)),
    covers: (resource) => resources.includes(resource),
  };
}
