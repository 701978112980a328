import { carrierAuthToken, carrierTokenConfigured } from '../adapters/carrier-secret.js';
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

export async function validCarrierSignature(event: ApiEvent, params: Params): Promise<boolean> {
  if (!carrierTokenConfigured()) return false;
  return validTwilioSignature(await carrierAuthToken(), requestUrl(event), postedFields(event, params), event.headers['x-twilio-signature']);
}
