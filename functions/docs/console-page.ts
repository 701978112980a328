import { readFile } from 'node:fs/promises';
import type { ConsoleAssets } from './console-build.js';
import type { Asset } from './page.js';
import { CONSOLE_MANIFEST, inLambda } from './shipped-files.js';

/**
 * The operator console at `/app` (docs/console.md): an HTML shell naming the console's script and
 * stylesheet, both served under `/app/assets/` with a hash of their content in the name. The
 * console itself runs in the browser over the public `/api/v1` routes; nothing here reads data.
 */
export const CONSOLE_PATH = '/app';
const ASSETS_PATH = '/app/assets';

/**
 * Built by esbuild outside Lambda (`npm start`, the tests) on first use. A specifier that is not a
 * string literal: esbuild leaves the import out of the function's bundle, and esbuild with it.
 */
const BUILD_MODULE = './console-build.js';

async function shipped(): Promise<ConsoleAssets> {
  const file = (name: string) => new URL(`./${name}`, import.meta.url);
  const manifest = JSON.parse(await readFile(file(CONSOLE_MANIFEST), 'utf8')) as { script: string; style: string };
  const [script, style] = await Promise.all([readFile(file(manifest.script), 'utf8'), readFile(file(manifest.style), 'utf8')]);
  return { script: { name: manifest.script, text: script }, style: { name: manifest.style, text: style } };
}

let assets: Promise<ConsoleAssets> | undefined;

/** The console's files: those shipped beside the bundle in Lambda, built from shared/console/ elsewhere; kept once read. */
export function consoleAssets(): Promise<ConsoleAssets> {
  assets ??= inLambda() ? shipped() : (import(BUILD_MODULE) as Promise<typeof import('./console-build.js')>).then((module) => module.buildConsole());
  return assets;
}

export async function consoleAssetNamed(name: string): Promise<{ asset: Asset; type: string } | undefined> {
  const { script, style } = await consoleAssets();
  if (name === script.name) return { asset: script, type: 'text/javascript; charset=utf-8' };
  if (name === style.name) return { asset: style, type: 'text/css; charset=utf-8' };
  return undefined;
}

/**
 * Only this origin: the console's own files and the API. Styles from the stylesheet only (inline
 * style properties set through the DOM, as Preact and uPlot set them, are not style attributes).
 */
export const CONSOLE_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data: blob:",
  "font-src 'self'",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

export async function consoleHtml(): Promise<string> {
  const { script, style } = await consoleAssets();
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Console · Call tracking service</title>
<link rel="stylesheet" href="${ASSETS_PATH}/${style.name}">
<script type="module" src="${ASSETS_PATH}/${script.name}"></script>
</head>
<body>
<noscript>The console needs JavaScript. The API itself is described at <a href="/docs">/docs</a>.</noscript>
<div id="app"></div>
</body>
</html>
`;
}
