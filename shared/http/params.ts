// The parser alone: the package's index also loads qs's stringifier, which nothing here uses and
// a bundle cannot drop (CommonJS). Typed in qs-parse.d.ts.
import type parseQsType from 'qs/lib/parse.js';
import { BadRequestError, ValidationError } from './errors.js';
import { INPUT_LIMITS, jsonDepthExceeds, PayloadTooLargeError } from './input-limits.js';
import type { Params } from './request.js';

/**
 * Query strings and form bodies are read with `qs`, so `ids[]=1&ids[]=2` and
 * `trigger_fields[offer_id]=3` become arrays and hashes as Rails-era clients expect.
 */
const QS_OPTIONS = { arrayLimit: 1000, parameterLimit: INPUT_LIMITS.entries, depth: 5 } as const;

let parser: typeof parseQsType | undefined;

/**
 * Loads qs's parser, once per process: every API function's Middy stack awaits this before it
 * reads a request (shared/http/handler.ts). Not a static import, so module init does not pay for
 * qs and its side-channel chain (get-intrinsic, object-inspect: about 10 ms of a cold import on
 * the test machine, docs/benchmarks.md "Issue 32"); the first request does.
 */
export async function loadQueryParser(): Promise<void> {
  parser ??= (await import('qs/lib/parse.js')).default;
}

function parseQs(text: string): Params {
  if (!parser) throw new Error('qs is not loaded yet: await loadQueryParser() first');
  return parser(text, QS_OPTIONS) as Params;
}

export function parseQuery(rawQueryString: string | undefined): Params {
  return rawQueryString ? parseQs(rawQueryString) : {};
}

/**
 * Parses a request body by content type. A body that looks like JSON is read as JSON whatever
 * the header says, because `curl -d '{...}'` labels it as a form.
 */
export function parseBody(body: string | undefined, contentType: string | undefined, bodyBytes: number = INPUT_LIMITS.bodyBytes): Params {
  if (body === undefined || body.trim() === '') return {};
  if (Buffer.byteLength(body, 'utf8') > bodyBytes) {
    throw new PayloadTooLargeError('body', `is larger than ${bodyBytes} bytes`);
  }
  const type = (contentType ?? '').split(';')[0]!.trim().toLowerCase();
  const looksLikeJson = /^\s*[[{]/.test(body);
  if (type === 'application/json' || type.endsWith('+json') || looksLikeJson) {
    // Refused before parsing: the parsed value would be walked and serialised later.
    if (jsonDepthExceeds(body, INPUT_LIMITS.depth + 1)) throw new ValidationError({ body: [`is nested more than ${INPUT_LIMITS.depth} levels deep`] });
    let parsed: unknown;
    try {
      parsed = JSON.parse(body);
    } catch {
      throw new BadRequestError('Malformed JSON body', { body: ['is not valid JSON'] });
    }
    const fields = Array.isArray(parsed) ? mergedFieldList(parsed) : parsed;
    if (fields === null || fields === undefined || typeof fields !== 'object' || Array.isArray(fields)) {
      throw new BadRequestError('JSON body must be an object', { body: ['must be a JSON object'] });
    }
    return fields as Params;
  }
  if (type === 'application/x-www-form-urlencoded' || type === '' || type === 'text/plain') {
    return parseQs(body);
  }
  throw new BadRequestError(`Unsupported content type ${type}`, { body: [`content type ${type} is not supported`] });
}

/**
 * A JSON array of one-field objects (`[{"first_name":"John"},{"last_name":"Doe"}]`), as the
 * hosted service's official PHP SDK example sends a record (docs/compatibility.md), read as one
 * object (a later field wins); undefined for any other array.
 */
export function mergedFieldList(list: readonly unknown[]): Params | undefined {
  if (list.length === 0) return undefined;
  const out: Params = {};
  for (const item of list) {
    if (item === null || typeof item !== 'object' || Array.isArray(item) || Object.keys(item).length !== 1) return undefined;
    Object.assign(out, item);
  }
  return out;
}

/**
 * Query and body merged, body winning: the reference lets list, lead and ping parameters
 * arrive either way, and the service it replaces merged them on every endpoint.
 */
export function mergeParams(query: Params, body: Params): Params {
  return { ...query, ...body };
}
