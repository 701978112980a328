import { renderTemplate, type TemplateMode } from '../events/templates.js';
import type { BidHttpRequest } from '../ports/bidding.js';
import type { RtbSettings } from './bid-settings.js';

/**
 * The request a bidding buyer is asked with, from its templates and the call's or ping's facts
 * (the outgoing webhooks' `{{token}}` rendering, shared/events/templates.ts). A template may name
 * a secret item as `{{secret:<name>}}`: its value is put in the request sent, and `[REDACTED]`
 * in what is logged, so no log or answer ever holds it. A token's value is never read as a
 * secret reference (secrets are filled in between the rendered pieces, not after). Pure.
 */
export interface BidFacts {
  /** E.164, or null when the caller is unknown. */
  caller: string | null;
  callerState: string | null;
  callerZip: string | null;
  offerId: number | null;
  trafficSourceId: number | null;
  /** The call's or ping's tokens (lead data, ping parameters, call configuration tokens). */
  tokens: Record<string, unknown>;
}

/** The request to send, and how it is logged (secrets redacted). */
export interface PreparedBid {
  request: BidHttpRequest;
  shownUrl: string;
  shownHeaders: Record<string, string>;
}

export const REDACTED = '[REDACTED]';

/** A fresh regex each use (a shared global regex carries lastIndex). */
const secretRefs = () => /\{\{\s*secret:([^{}]{1,100}?)\s*\}\}/g;

/** The secret items the buyer's templates name, each once. */
export function secretNamesOf(settings: RtbSettings): string[] {
  const names = new Set<string>();
  for (const template of [settings.url, settings.body ?? '', ...Object.values(settings.headers)]) {
    for (const match of template.matchAll(secretRefs())) names.add(match[1]!.trim());
  }
  return [...names];
}

/** The tokens a bid template reads: the call's tokens, then the facts the service knows, which win. */
export function bidTokens(facts: BidFacts): Record<string, unknown> {
  return {
    ...facts.tokens,
    caller_id: facts.caller,
    caller_number: facts.caller,
    caller_number_no_plus: facts.caller?.replace(/^\+/, '') ?? null,
    caller_state: facts.callerState,
    caller_zip: facts.callerZip,
    offer_id: facts.offerId,
    traffic_source_id: facts.trafficSourceId,
  };
}

/** The default body: the caller and every token as JSON. */
export function defaultBidBody(facts: BidFacts): string {
  return JSON.stringify(bidTokens(facts));
}

class MissingSecret extends Error {}

function render(template: string, tokens: Record<string, unknown>, mode: TemplateMode, secret: (name: string) => string): string {
  const parts: string[] = [];
  let last = 0;
  for (const match of template.matchAll(secretRefs())) {
    // The secret escaped for where it goes, as a token would be (a URL's query, a JSON string).
    parts.push(renderTemplate(template.slice(last, match.index), tokens, mode), renderTemplate('{{value}}', { value: secret(match[1]!.trim()) }, mode));
    last = match.index + match[0].length;
  }
  parts.push(renderTemplate(template.slice(last), tokens, mode));
  return parts.join('');
}

/** A URL as logged: secrets redacted, and a password in it too. */
function shownUrlOf(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = 'REDACTED';
    return parsed.toString();
  } catch {
    return url;
  }
}

/**
 * The bid request of a buyer, or why none can be made (a secret it names does not exist, a
 * template renders too large).
 */
export function prepareBid(settings: RtbSettings, facts: BidFacts, secrets: ReadonlyMap<string, string>): { ok: true; bid: PreparedBid } | { ok: false; reason: 'missing_secret' | 'invalid_request'; detail: string } {
  const tokens = bidTokens(facts);
  const real = (name: string) => {
    const value = secrets.get(name);
    if (value === undefined) throw new MissingSecret(name);
    return value;
  };
  const redacted = () => REDACTED;
  try {
    const url = render(settings.url, tokens, 'url', real);
    const headers: Record<string, string> = { Accept: 'application/json' };
    const shownHeaders: Record<string, string> = { Accept: 'application/json' };
    for (const [name, template] of Object.entries(settings.headers)) {
      headers[name] = render(template, tokens, 'text', real);
      shownHeaders[name] = render(template, tokens, 'text', redacted);
    }
    let body: string | undefined;
    if (settings.method === 'POST') {
      body = settings.body === null ? defaultBidBody(facts) : render(settings.body, tokens, 'json', real);
      headers['Content-Type'] = 'application/json';
      shownHeaders['Content-Type'] = 'application/json';
    }
    return {
      ok: true,
      bid: {
        request: { url, method: settings.method, headers, ...(body !== undefined ? { body } : {}), timeoutMs: settings.timeoutMs },
        shownUrl: shownUrlOf(render(settings.url, tokens, 'url', redacted)),
        shownHeaders,
      },
    };
  } catch (error) {
    if (error instanceof MissingSecret) return { ok: false, reason: 'missing_secret', detail: `no secret item named ${error.message.slice(0, 100)}` };
    return { ok: false, reason: 'invalid_request', detail: (error as Error).message.slice(0, 200) };
  }
}
