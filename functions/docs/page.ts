import { createHash } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import { rendererScript } from './renderer.js';

/**
 * The reference page at `/docs`: an HTML shell, the renderer's script and a small script that
 * starts it on the OpenAPI document. Both scripts are served under `/docs/assets/` with a hash
 * of their content in the name, so caches may keep them for good.
 */
export const DOCUMENT_PATH = '/api/v1/openapi.json';
export const PAGE_PATH = '/docs';
const ASSETS_PATH = '/docs/assets';

/**
 * Scalar's settings: nothing leaves the deployment (no web fonts, telemetry, AI agent, MCP or
 * proxy); the "try it" client calls this same origin.
 */
const RENDERER_SETTINGS = {
  url: DOCUMENT_PATH,
  withDefaultFonts: false,
  telemetry: false,
  agent: { disabled: true },
  mcp: { disabled: true },
  showDeveloperTools: 'never',
  documentDownloadType: 'json',
};

const START_SCRIPT = `Scalar.createApiReference('#app', ${JSON.stringify(RENDERER_SETTINGS)});\n`;

export interface Asset {
  name: string;
  text: string;
  /** Made on the first request that accepts gzip (the renderer's script shrinks from about 4.4 MB to 1.3 MB). */
  gzipped?: Buffer;
}

/** An asset named for its content (`stem-<16 hex>.ext`): a changed file is another name, so caches may keep each for good. */
export const hashed = (stem: string, text: string, extension = 'js'): Asset => ({ name: `${stem}-${createHash('sha256').update(text).digest('hex').slice(0, 16)}.${extension}`, text });

let assets: Promise<{ renderer: Asset; start: Asset }> | undefined;

/** The page's scripts, loaded and named once per process. */
export function pageAssets(): Promise<{ renderer: Asset; start: Asset }> {
  assets ??= rendererScript().then((script) => ({ renderer: hashed('scalar', script), start: hashed('start', START_SCRIPT) }));
  return assets;
}

export async function assetNamed(name: string): Promise<Asset | undefined> {
  const { renderer, start } = await pageAssets();
  return [renderer, start].find((asset) => asset.name === name);
}

export function gzippedAsset(asset: Asset): Buffer {
  asset.gzipped ??= gzipSync(asset.text);
  return asset.gzipped;
}

/**
 * Only what the page needs: its own scripts, the styles the renderer injects, the document and
 * the "try it" requests on this origin.
 */
export const PAGE_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "worker-src 'self' blob:",
  "object-src 'none'",
  "base-uri 'self'",
  "frame-ancestors 'none'",
].join('; ');

export async function pageHtml(): Promise<string> {
  const { renderer, start } = await pageAssets();
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Call tracking service API</title>
</head>
<body>
<noscript>The reference needs JavaScript. The OpenAPI document itself: <a href="${DOCUMENT_PATH}">${DOCUMENT_PATH}</a>.</noscript>
<div id="app"></div>
<script src="${ASSETS_PATH}/${renderer.name}"></script>
<script src="${ASSETS_PATH}/${start.name}"></script>
</body>
</html>
`;
}
