import { NotFoundError } from '../../shared/http/errors.js';
import { createRouteGroupHandler } from '../../shared/http/handler.js';
import { docsRoutes } from '../../shared/http/routes/docs.js';
import type { Operation } from '../../shared/http/request.js';
import { publishedOpenApiJson } from './published-document.js';
import { CONSOLE_CSP, CONSOLE_PATH, consoleAssetNamed, consoleHtml } from './console-page.js';
import { assetNamed, gzippedAsset, PAGE_CSP, pageHtml, type Asset } from './page.js';

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

/** An HTML page: not kept (the next deployment's page names new files). */
const htmlPage = (body: string, csp: string) => ({
  kind: 'raw' as const,
  response: {
    statusCode: 200,
    headers: { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-cache', 'content-security-policy': csp, 'x-content-type-options': 'nosniff', 'referrer-policy': 'no-referrer' },
    body,
  },
});

const page: Operation = async () => htmlPage(await pageHtml(), PAGE_CSP);

/** A file named for its content: kept by caches for good, gzipped when the client takes it. */
function servedAsset(found: Asset, type: string, acceptEncoding: string | undefined) {
  const headers = {
    'content-type': type,
    // The name holds a hash of the content: a changed file is another name.
    'cache-control': 'public, max-age=31536000, immutable',
    vary: 'accept-encoding',
    'x-content-type-options': 'nosniff',
  };
  if (!acceptsGzip(acceptEncoding)) return { kind: 'raw' as const, response: { statusCode: 200, headers, body: found.text } };
  return {
    kind: 'raw' as const,
    response: { statusCode: 200, headers: { ...headers, 'content-encoding': 'gzip' }, body: gzippedAsset(found).toString('base64'), isBase64Encoded: true },
  };
}

const asset: Operation = async (request) => {
  const found = await assetNamed(request.pathParams.name ?? '');
  if (!found) throw new NotFoundError();
  return servedAsset(found, 'text/javascript; charset=utf-8', request.headers['accept-encoding']);
};

const consolePage: Operation = async () => htmlPage(await consoleHtml(), CONSOLE_CSP);

const consoleAsset: Operation = async (request) => {
  const found = await consoleAssetNamed(request.pathParams.name ?? '');
  if (!found) throw new NotFoundError();
  return servedAsset(found.asset, found.type, request.headers['accept-encoding']);
};

/** The root is the operator console; the reference stays at /docs. */
const home: Operation = async () => ({ kind: 'raw', response: { statusCode: 302, headers: { location: CONSOLE_PATH }, body: '' } });

/** The API describing itself: its OpenAPI document and a reference page rendered from it. */
export const handler = createRouteGroupHandler('docs', docsRoutes, {
  'docs.openapi': openapi,
  'docs.page': page,
  'docs.asset': asset,
  'docs.home': home,
  'docs.console': consolePage,
  'docs.console_asset': consoleAsset,
});
