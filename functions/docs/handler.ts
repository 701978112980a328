import { NotFoundError } from '../../shared/http/errors.js';
import { createRouteGroupHandler } from '../../shared/http/handler.js';
import { docsRoutes } from '../../shared/http/routes/docs.js';
import type { Operation } from '../../shared/http/request.js';
import { publishedOpenApiJson } from './published-document.js';
import { assetNamed, gzippedAsset, PAGE_CSP, PAGE_PATH, pageHtml } from './page.js';

/** Does an Accept-Encoding header take gzip (not with q=0)? */
export function acceptsGzip(header: string | undefined): boolean {
  return (header ?? '').split(',').some((part) => {
    const [coding, ...params] = part.split(';').map((piece) => piece.trim().toLowerCase());
    const refused = params.some((param) => /^q=0(\.0*)?$/.test(param));
    return (coding === 'gzip' || coding === '*') && !refused;
  });
}

const openapi: Operation = async () => ({
  kind: 'raw',
  response: {
    statusCode: 200,
    // Public, like the page: other tools (editors, client generators) may fetch it from a browser.
    headers: { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-cache', 'access-control-allow-origin': '*' },
    body: await publishedOpenApiJson(),
  },
});

const page: Operation = async () => ({
  kind: 'raw',
  response: {
    statusCode: 200,
    // Not kept: the next deployment's page names new scripts.
    headers: { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-cache', 'content-security-policy': PAGE_CSP, 'x-content-type-options': 'nosniff', 'referrer-policy': 'no-referrer' },
    body: await pageHtml(),
  },
});

const asset: Operation = async (request) => {
  const found = await assetNamed(request.pathParams.name ?? '');
  if (!found) throw new NotFoundError();
  const headers = {
    'content-type': 'text/javascript; charset=utf-8',
    // The name holds a hash of the content: a changed script is another name.
    'cache-control': 'public, max-age=31536000, immutable',
    vary: 'accept-encoding',
    'x-content-type-options': 'nosniff',
  };
  if (!acceptsGzip(request.headers['accept-encoding'])) return { kind: 'raw', response: { statusCode: 200, headers, body: found.text } };
  return {
    kind: 'raw',
    response: { statusCode: 200, headers: { ...headers, 'content-encoding': 'gzip' }, body: gzippedAsset(found).toString('base64'), isBase64Encoded: true },
  };
};

const home: Operation = async () => ({ kind: 'raw', response: { statusCode: 302, headers: { location: PAGE_PATH }, body: '' } });

/** The API describing itself: its OpenAPI document and a reference page rendered from it. */
export const handler = createRouteGroupHandler('docs', docsRoutes, {
  'docs.openapi': openapi,
  'docs.page': page,
  'docs.asset': asset,
  'docs.home': home,
});
