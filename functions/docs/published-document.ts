import { readFile } from 'node:fs/promises';
import { inLambda, OPENAPI_FILE } from './shipped-files.js';

/**
 * Built from the registry outside Lambda (`npm start`, the tests). A specifier that is not a
 * string literal: esbuild leaves the import out of the bundle, so the registry is not bundled.
 */
const BUILD_MODULE = './document.js';

let json: Promise<string> | undefined;

/** The OpenAPI document's JSON text: the file written at build time in Lambda, built from code elsewhere; kept once read. */
export function publishedOpenApiJson(): Promise<string> {
  json ??= inLambda()
    ? readFile(new URL(`./${OPENAPI_FILE}`, import.meta.url), 'utf8')
    : (import(BUILD_MODULE) as Promise<typeof import('./document.js')>).then((module) => module.openApiJson());
  return json;
}
