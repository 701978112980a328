import { carrierAuthToken, carrierTokenConfigured, carrierTokenFromSecret } from '../adapters/carrier-secret.js';
import type { ApiEvent, Params } from '../http/request.js';
import { requestUrl } from '../http/request-url.js';
import { validTwilioSignature } from './twilio-signature.js';

/**
 * Checks a voice carrier request's signature against the carrier auth token (shared/adapters/
 * carrier-secret.ts), over the URL the carrier called (shared/http/request-url.ts) and the form
 * fields it posted. Without a configured token every request is refused; a token that cannot be
 * read (Secrets Manager unreachable) is an error, so the carrier retries.
 */

/** The form fields the carrier posted (the query string is part of the signed URL instead). */
function postedFields(event: ApiEvent, params: Params): Record<string, string> {
  const query = new URLSearchParams(event.rawQueryString ?? '');
  const fields: Record<string, string> = {};
  for (const [name, value] of Object.entries(params)) {
    if (query.has(name) && query.get(name) === value) continue;
    if (typeof value === 'string') fields[name] = value;
  }
  return fields;
}

/**
 * After the carrier's token is rotated, the cached one fails every signature until the cache
 * expires (5 minutes of refused calls). So a signature that fails with the cached token is
 * checked once more against the secret read afresh; at most one such read per
 * FRESH_READ_INTERVAL_MS per instance, so forged requests cannot flood Secrets Manager.
 */
export const FRESH_READ_INTERVAL_MS = 30_000;
let lastFreshRead = Number.NEGATIVE_INFINITY;

export async function validCarrierSignature(event: ApiEvent, params: Params): Promise<boolean> {
  if (!carrierTokenConfigured()) return false;
  const url = requestUrl(event);
  const fields = postedFields(event, params);
  const signature = event.headers['x-twilio-signature'];
  if (validTwilioSignature(await carrierAuthToken(), url, fields, signature)) return true;
  const now = Date.now();
  if (!carrierTokenFromSecret() || now - lastFreshRead < FRESH_READ_INTERVAL_MS) return false;
  lastFreshRead = now;
  return validTwilioSignature(await carrierAuthToken({ refresh: true }), url, fields, signature);
}
