import type { ApiEvent } from './request.js';

/**
 * The absolute URL a client called: PUBLIC_BASE_URL when set (behind a proxy or a custom
 * domain), else the request's scheme (X-Forwarded-Proto, which API Gateway and the local
 * gateway set) and host, with the path and query as received. Carrier signatures cover it.
 */
export function requestUrl(event: ApiEvent): string {
  const base =
    process.env.PUBLIC_BASE_URL?.replace(/\/$/, '') ??
    `${event.headers?.['x-forwarded-proto'] ?? 'https'}://${event.headers?.host ?? event.requestContext.domainName}`;
  return `${base}${event.rawPath}${event.rawQueryString ? `?${event.rawQueryString}` : ''}`;
}
