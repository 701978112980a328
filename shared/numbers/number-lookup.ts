import type { NumberRoute } from './lookup.js';

/**
 * The number lookup of the hosted service's number-replacement script (docs/compatibility.md,
 * "Number replacement script"): which tracking number a landing page shows its visitor, and the
 * visitor's parameters, from what the script sends. Pure.
 */

/** At most this many visitor parameters are kept, as ring pools' visitor numbers keep them. */
export const MAX_VISITOR_PARAMS = 50;
const PARAM_NAME = /^[A-Za-z0-9_.-]{1,100}$/;
const MAX_PARAM_VALUE = 500;

/** Base64 text as the script writes it (btoa of UTF-8), or undefined when it is not base64. */
export function decodeBase64Text(text: string | undefined): string | undefined {
  if (!text) return undefined;
  const compact = text.replace(/\s+/g, '');
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(compact) || compact.length % 4 === 1) return undefined;
  return Buffer.from(compact, 'base64').toString('utf8');
}

/** A query string's parameters (jQuery.param's form), or none when it is not one. */
function queryParams(text: string): Array<[string, string]> {
  try {
    return [...new URLSearchParams(text.replace(/^\?/, '')).entries()];
  } catch {
    return [];
  }
}

/**
 * The visitor's parameters: the landing page URL's query (utm_source, gclid...), then the
 * script's tokens (`data-tokens`, `tokens`), which win. Names outside `[A-Za-z0-9_.-]{1,100}`
 * (jQuery.param's `a[b]` of a nested token) and values over 500 characters are left out, and at
 * most 50 are kept: the page is the visitor's, so what does not fit is dropped, not refused.
 */
export function visitorParams(referrerUrl: string | undefined, referrerTokens: string | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  const fromUrl = (() => {
    if (!referrerUrl) return [];
    try {
      return queryParams(new URL(referrerUrl).search);
    } catch {
      return [];
    }
  })();
  for (const [name, value] of [...fromUrl, ...(referrerTokens ? queryParams(referrerTokens) : [])]) {
    if (!PARAM_NAME.test(name) || value.length > MAX_PARAM_VALUE) continue;
    if (!(name in out) && Object.keys(out).length >= MAX_VISITOR_PARAMS) continue;
    out[name] = value;
  }
  return out;
}

/** Where the number shown comes from: a ring pool (a number held for this visitor) or one fixed number. */
export type LookupSource = { kind: 'pool'; poolId: number } | { kind: 'number'; number: NumberRoute };

/**
 * The hosted service's documented behaviour: a landing page shows the offer's numbers; those of
 * a number pool rotate across visitors (each visitor a number of their own, held with their
 * tokens); a traffic source's numbers are shown to its traffic. So: the offer's numbers of the
 * visitor's `traffic_source_id` when it has any (else all of them); among those, a pool's when
 * there is one (the lowest pool id), else the number with the lowest id (so a page shows one
 * stable number per offer and traffic source). Undefined when the offer has no number.
 */
export function chooseLookupSource(numbers: readonly NumberRoute[], trafficSourceId: number | undefined): LookupSource | undefined {
  const ofSource = trafficSourceId === undefined ? [] : numbers.filter((number) => number.traffic_source_id === trafficSourceId);
  const candidates = ofSource.length ? ofSource : numbers;
  const pools = candidates.map((number) => number.ring_pool_id).filter((id): id is number => id !== null);
  if (pools.length) return { kind: 'pool', poolId: Math.min(...pools) };
  const first = [...candidates].sort((a, b) => a.id - b.id)[0];
  return first ? { kind: 'number', number: first } : undefined;
}

/**
 * The number in the formats the script reads (`plain_number`, `human_number`) and the ones its
 * `data-text` templates may name: North American numbers as (415) 555-2671, 415-555-2671 and
 * 415.555.2671; other numbers as E.164 in each.
 */
export function numberFormats(e164: string): { plain_number: string; human_number: string; dashed_number: string; dotted_number: string } {
  const nanp = /^\+1(\d{3})(\d{3})(\d{4})$/.exec(e164);
  if (!nanp) return { plain_number: e164, human_number: e164, dashed_number: e164, dotted_number: e164 };
  const [, area, exchange, line] = nanp;
  return { plain_number: e164, human_number: `(${area}) ${exchange}-${line}`, dashed_number: `${area}-${exchange}-${line}`, dotted_number: `${area}.${exchange}.${line}` };
}
