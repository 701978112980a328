/**
 * Credentials never reach a log verbatim: request parameters kept in ping and post logs and URLs
 * written to access logs have their secret values replaced. Pure.
 */
const SECRET_NAMES = /^(auth_token|token|secret|password|private_key|api_key|secure_token|signature)$/i;

export const REDACTED = '[redacted]';

/** A copy of parameters with the values of secret-named keys (at any depth) replaced. */
export function redactParams(params: Record<string, unknown>): Record<string, unknown> {
  const copy = (value: unknown, depth: number): unknown => {
    if (depth > 10 || value === null || typeof value !== 'object') return value;
    if (Array.isArray(value)) return value.map((item) => copy(item, depth + 1));
    return Object.fromEntries(
      Object.entries(value as Record<string, unknown>).map(([key, inner]) => [key, SECRET_NAMES.test(key) ? REDACTED : copy(inner, depth + 1)]),
    );
  };
  return copy(params, 0) as Record<string, unknown>;
}

/** A request path with the values of secret query parameters replaced (`?auth_token=…`). */
export function redactUrl(pathAndQuery: string): string {
  const question = pathAndQuery.indexOf('?');
  if (question < 0) return pathAndQuery;
  const query = pathAndQuery
    .slice(question + 1)
    .split('&')
    .map((pair) => {
      const name = decodeURIComponentSafe(pair.split('=')[0] ?? '').replace(/\[.*$/, '');
      return SECRET_NAMES.test(name) ? `${pair.split('=')[0]}=${REDACTED}` : pair;
    })
    .join('&');
  return `${pathAndQuery.slice(0, question)}?${query}`;
}

function decodeURIComponentSafe(text: string): string {
  try {
    return decodeURIComponent(text.replace(/\+/g, ' '));
  } catch {
    return text;
  }
}
