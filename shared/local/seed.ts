import { randomBytes } from 'node:crypto';
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
  const kept = existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>) : {};
  writeFileSync(file, JSON.stringify({ ...kept, company_id: company.id, public_key: keyPair.publicKey, private_key: keyPair.privateKey }, null, 2), {
    mode: 0o600,
  });
  chmodSync(file, 0o600);
  return { companyId: company.id, keyPair, generated: true };
}

/**
 * The carrier auth token of local mode: the simulator signs its webhooks with it as the carrier
 * would. Taken from TWILIO_AUTH_TOKEN, else kept in DATA_DIR/credentials.json (made once).
 */
export function localVoiceToken(dataDir: string): string {
  if (process.env.TWILIO_AUTH_TOKEN) return process.env.TWILIO_AUTH_TOKEN;
  const file = join(dataDir, 'credentials.json');
  const saved = existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>) : {};
  if (typeof saved.voice_auth_token === 'string') return saved.voice_auth_token;
  const token = randomBytes(16).toString('hex');
  writeFileSync(file, JSON.stringify({ ...saved, voice_auth_token: token }, null, 2), { mode: 0o600 });
  chmodSync(file, 0o600);
  return token;
}
