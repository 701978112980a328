import type { ApiEvent, Params } from '../http/request.js';
import { requestUrl } from '../http/request-url.js';
import { validTwilioSignature } from './twilio-signature.js';

/**
 * Checks a voice carrier request's signature against TWILIO_AUTH_TOKEN, over the URL the
 * carrier called (shared/http/request-url.ts) and the form fields it posted.
 */
const authToken = process.env.TWILIO_AUTH_TOKEN;


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

export function validCarrierSignature(event: ApiEvent, params: Params): boolean {
  if (!authToken) return false;
  return validTwilioSignature(authToken, requestUrl(event), postedFields(event, params), event.headers['x-twilio-signature']);
}
