import * as v from 'valibot';
import { targetUrlProblem } from '../outbound/address-policy.js';
import { renderTemplate, templateTokens } from './templates.js';
import { blankable, isHttpUrl, jsonObject, oneOf, presentString } from '../http/param-schemas.js';

/**
 * The request an outgoing webhook URL describes: where (a URL template), how (method, content
 * type), extra headers and a body template. Each field with its rule; the sender renders the
 * templates (shared/events/templates.ts) when it fires.
 */

export const HTTP_METHODS = ['POST', 'GET', 'PUT', 'PATCH', 'DELETE'] as const;
export const CONTENT_TYPES = ['application/json', 'application/x-www-form-urlencoded', 'text/plain'] as const;

export const OUTGOING_REQUEST_LIMITS = {
  headers: 20,
  headerValueChars: 1_000,
  /** Body template, UTF-8 bytes (a single string value is also held to 10,000 characters on input). */
  bodyBytes: 16_384,
} as const;

/** An http(s) URL once every `{{token}}` is filled: placeholders are checked as `x`. */
export function isHttpUrlTemplate(template: string): boolean {
  const filler = Object.fromEntries(templateTokens(template).map((name) => [name, 'x']));
  return isHttpUrl(renderTemplate(template, filler, 'text'));
}

/**
 * The SSRF guard's check on input (shared/outbound/address-policy.ts): a URL naming a
 * literal loopback, private or link-local address (or localhost) is a 422; hostnames are checked
 * when a delivery connects. WEBHOOK_ALLOWED_CIDRS is read on every check.
 */
export const reachableTarget = v.rawCheck<string>(({ dataset, addIssue }) => {
  // Only a URL that passed the checks before: one problem at a time.
  if (!dataset.typed || dataset.issues) return;
  const filler = Object.fromEntries(templateTokens(dataset.value).map((name) => [name, 'x']));
  const problem = targetUrlProblem(renderTemplate(dataset.value, filler, 'text'));
  if (problem) addIssue({ message: problem });
});

export const urlTemplateParam = v.pipe(presentString, v.check(isHttpUrlTemplate, 'is not a valid URL (http or https, {{token}} placeholders allowed)'), reachableTarget);

/** Method names in any case, stored upper-case. */
export const httpMethodParam = v.pipe(
  v.unknown(),
  v.transform((value) => (typeof value === 'string' ? value.trim().toUpperCase() : value)),
  oneOf(HTTP_METHODS),
);

export const contentTypeParam = oneOf(CONTENT_TYPES);

/** RFC 9110 token characters: what a header name may be made of. */
const HEADER_NAME = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
/** Control characters but tab: a line break in a value would start a header of its own. */
const CONTROL = /[\u0000-\u0008\u000A-\u001F\u007F]/;

/**
 * Headers the service sets itself: framing and connection headers (a client value would break
 * or smuggle the request), Content-Type (set from `content_type`) and `webhook-*`, kept for the
 * signature headers of deliveries.
 */
const RESERVED_HEADERS: Record<string, string> = {
  host: 'is set by the service',
  'content-length': 'is set by the service',
  'transfer-encoding': 'is set by the service',
  connection: 'is set by the service',
  'keep-alive': 'is set by the service',
  upgrade: 'is set by the service',
  te: 'is set by the service',
  trailer: 'is set by the service',
  'content-type': 'is set from content_type',
};
const RESERVED_PREFIX = 'webhook-';

/** A name as an error shows it: never the whole of a hostile one. */
function shown(name: string): string {
  return name.length > 40 ? `${name.slice(0, 40)}…` : name;
}

/** What is wrong with a headers hash, one message per problem. Pure. */
export function headerProblems(headers: Record<string, unknown>): string[] {
  const problems: string[] = [];
  const names = Object.keys(headers);
  if (names.length > OUTGOING_REQUEST_LIMITS.headers) problems.push(`has more than ${OUTGOING_REQUEST_LIMITS.headers} headers`);
  const seen = new Set<string>();
  for (const name of names.slice(0, OUTGOING_REQUEST_LIMITS.headers)) {
    const lower = name.toLowerCase();
    const value = headers[name];
    if (!HEADER_NAME.test(name)) problems.push(`has a header name that is not a valid HTTP token: ${shown(name)}`);
    else if (Object.hasOwn(RESERVED_HEADERS, lower)) problems.push(`cannot set ${name}: it ${RESERVED_HEADERS[lower]}`);
    else if (lower.startsWith(RESERVED_PREFIX)) problems.push(`cannot set ${shown(name)}: webhook-* headers are reserved for the service`);
    else if (seen.has(lower)) problems.push(`names ${shown(name)} twice (header names are case-insensitive)`);
    seen.add(lower);
    if (typeof value !== 'string') problems.push(`has a value for ${shown(name)} that is not a string`);
    else if (value.length > OUTGOING_REQUEST_LIMITS.headerValueChars) problems.push(`has a value for ${shown(name)} longer than ${OUTGOING_REQUEST_LIMITS.headerValueChars} characters`);
    else if (CONTROL.test(value)) problems.push(`has a value for ${shown(name)} with a line break or control character`);
  }
  return problems;
}

/** A hash of header name to value (an object, or JSON text of one); blank is no headers. */
export const headersParam = v.pipe(
  blankable(
    jsonObject(
      v.pipe(
        v.record(v.string(), v.unknown()),
        v.rawCheck(({ dataset, addIssue }) => {
          if (!dataset.typed) return;
          for (const message of headerProblems(dataset.value)) addIssue({ message });
        }),
      ),
      'is not a hash of header names and values',
    ),
  ),
  v.transform((headers) => (headers ?? {}) as Record<string, string>),
);

export const bodyTemplateParam = blankable(
  v.pipe(
    v.string('is not a string'),
    v.check((text) => Buffer.byteLength(text, 'utf8') <= OUTGOING_REQUEST_LIMITS.bodyBytes, `is too long (maximum is ${OUTGOING_REQUEST_LIMITS.bodyBytes} bytes)`),
  ),
);
