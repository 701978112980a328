import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { KeyPair } from '../auth/credentials.js';
import { addApiKey, ensureCompany, findApiKey } from '../db/companies.js';
import { secretMatches } from '../auth/credentials.js';

export const DEFAULT_COMPANY = 'default';

export interface SeedResult {
  companyId: number;
  keyPair: KeyPair;
  /** Whether the pair was made now (and so is printed once). */
  generated: boolean;
}

/**
 * Seeds the default company and its API key pair. An explicit pair is stored as given; else a
 * pair saved by an earlier start is kept (so restarts do not rotate keys); else one is minted
 * and saved to DATA_DIR/credentials.json, readable only by its owner.
 */
export async function seedDefaultCompany(dataDir: string, explicit?: KeyPair): Promise<SeedResult> {
  const company = await ensureCompany(DEFAULT_COMPANY);
  if (explicit) {
    await addApiKey(company.id, explicit);
    return { companyId: company.id, keyPair: explicit, generated: false };
  }
  const file = join(dataDir, 'credentials.json');
  if (existsSync(file)) {
    const saved = JSON.parse(readFileSync(file, 'utf8')) as { public_key: string; private_key: string };
    const stored = await findApiKey(saved.public_key);
    if (stored && stored.company_id === company.id && secretMatches(saved.private_key, stored.secret_hash)) {
      return { companyId: company.id, keyPair: { publicKey: saved.public_key, privateKey: saved.private_key }, generated: false };
    }
  }
  const keyPair = await addApiKey(company.id);
  writeFileSync(file, JSON.stringify({ company_id: company.id, public_key: keyPair.publicKey, private_key: keyPair.privateKey }, null, 2), {
    mode: 0o600,
  });
  chmodSync(file, 0o600);
  return { companyId: company.id, keyPair, generated: true };
}
