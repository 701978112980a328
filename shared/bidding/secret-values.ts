import { encryptionPort } from '../adapters/encryption.js';
import { keys } from '../db/keys.js';
import { getItems, getRecords } from '../db/records.js';
import { ciphertextAttribute, storedValueContext } from '../secrets/encrypted-fields.js';
import { RecentMap } from '../recent-map.js';

/**
 * The values of the secret items bidding buyers' templates name (`{{secret:<name>}}`), decrypted
 * through the encryption port (KMS in AWS). Kept in memory for a minute per company and name, so
 * a ping does not read and decrypt them each time; a changed secret is used within a minute.
 * Values never leave this module but in the request sent to the buyer.
 */
const KEEP_MS = 60_000;
const kept = new RecentMap<string, { value: string | undefined; at: number }>(5_000);

export async function secretValues(companyId: number, names: readonly string[], nowMs = Date.now()): Promise<Map<string, string>> {
  const values = new Map<string, string>();
  const missing: string[] = [];
  for (const name of names) {
    const entry = kept.get(`${companyId}\n${name}`);
    if (entry && nowMs - entry.at < KEEP_MS) {
      if (entry.value !== undefined) values.set(name, entry.value);
    } else missing.push(name);
  }
  if (missing.length === 0) return values;
  const lookups = await getItems(missing.map((name) => keys.lookup(companyId, 'secret_items', 'name', name)));
  const idOf = new Map(lookups.map((item) => [String(item.pk), Number(item.id)]));
  const ids = missing.flatMap((name) => {
    const id = idOf.get(keys.lookup(companyId, 'secret_items', 'name', name).pk);
    return id ? [id] : [];
  });
  const records = ids.length ? await getRecords(companyId, 'secret_items', ids) : [];
  const port = encryptionPort();
  await Promise.all(
    missing.map(async (name) => {
      const record = records.find((candidate) => candidate.name === name);
      const ciphertext = record?.[ciphertextAttribute('value')];
      // A value that does not decrypt counts as missing: the buyer is left out (missing_secret), the request goes on.
      const value =
        typeof ciphertext === 'string' ? await port.decrypt(ciphertext, storedValueContext(companyId, 'secret_items', String(record!.uuid), 'value')).catch(() => undefined) : undefined;
      kept.set(`${companyId}\n${name}`, { value, at: nowMs });
      if (value !== undefined) values.set(name, value);
    }),
  );
  return values;
}
