import type { HookContext } from '../resources/define.js';
import { OAUTH_TOKEN_FIELDS } from './secret-fields.js';
import { encryptFields } from './encrypted-fields.js';

/**
 * A connection's tokens, as the client supplies them (no OAuth flow runs here): each one sent is
 * encrypted into <token>_ciphertext (a blank one clears it); the record shows only whether it has
 * each token and when they were last set.
 */
async function storedTokens(context: HookContext, uuid: string, fields: Record<string, unknown>, before?: Record<string, unknown>): Promise<Record<string, unknown>> {
  const sent = OAUTH_TOKEN_FIELDS.filter((field) => fields[field] !== undefined);
  if (!sent.length) return {};
  const plaintexts = Object.fromEntries(sent.map((field) => [field, typeof fields[field] === 'string' ? (fields[field] as string) : null]));
  const has = (field: (typeof OAUTH_TOKEN_FIELDS)[number]) => (field in plaintexts ? plaintexts[field] !== null : before?.[`has_${field}`] === true);
  return {
    ...(await encryptFields(context.companyId, 'oauth_connections', uuid, plaintexts)),
    has_access_token: has('access_token'),
    has_refresh_token: has('refresh_token'),
    tokens_updated_at: context.now.toISOString(),
  };
}

/** On create: once every check has passed, just before the write. */
export async function acquire(context: HookContext, draft: { record: Record<string, unknown>; fields: Record<string, unknown> }) {
  return { fields: await storedTokens(context, String(draft.record.uuid), draft.fields), release: async () => {} };
}

export async function prepareUpdate(context: HookContext, before: Record<string, unknown>, fields: Record<string, unknown>) {
  return storedTokens(context, String(before.uuid), fields, before);
}
