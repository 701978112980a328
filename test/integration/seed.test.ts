import { mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { findApiKey } from '../../shared/db/companies.js';
import { seedDefaultCompany } from '../../shared/local/seed.js';
import { secretMatches } from '../../shared/auth/credentials.js';

describe('seedDefaultCompany', () => {
  it('generates a pair once, saves it owner-only, and reuses it on the next start', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'seed-'));
    const first = await seedDefaultCompany(dataDir);
    expect(first.generated).toBe(true);
    const file = join(dataDir, 'credentials.json');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(JSON.parse(readFileSync(file, 'utf8'))).toMatchObject({ public_key: first.keyPair.publicKey, private_key: first.keyPair.privateKey });
    const stored = await findApiKey(first.keyPair.publicKey);
    expect(stored && secretMatches(first.keyPair.privateKey, stored.secret_hash)).toBe(true);
    expect(stored).not.toHaveProperty('private_key');

    const second = await seedDefaultCompany(dataDir);
    expect(second).toEqual({ ...first, generated: false });
  });

  it('stores exactly the pair given in the environment', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'seed-'));
    const pair = { publicKey: `pub${Date.now()}`, privateKey: 'explicit-private-key' };
    const result = await seedDefaultCompany(dataDir, pair);
    expect(result).toMatchObject({ keyPair: pair, generated: false });
    const stored = await findApiKey(pair.publicKey);
    expect(stored && secretMatches(pair.privateKey, stored.secret_hash)).toBe(true);
  });
});
