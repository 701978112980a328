/**
 * Files the docs function reads at run time from beside its bundle rather than holding them in
 * the bundle (issue 13: every bundle at most 300 KB):
 * - Scalar's browser script, ~4.4 MB, served as bytes and never run by the function;
 * - the OpenAPI document, written at build time by write-document.ts: it is pure data derived
 *   from the route table and every resource's schemas, and building it at run time would bundle
 *   the whole resource registry (and libphonenumber with it);
 * - the operator console's script and stylesheet, built by write-console.ts with esbuild.
 * The stack runs `afterBundlingCommands` after bundling (infra/constructs/function-defaults.ts);
 * renderer.ts and published-document.ts read the files from there in Lambda, and from the
 * repository elsewhere.
 *
 * No imports: the CDK app and the bundle both read this.
 */
export interface ShippedFile {
  /** Path relative to the repository root. */
  source: string;
  /** File name beside the bundle. */
  name: string;
}

export const scalarScript: ShippedFile = { source: 'node_modules/@scalar/api-reference/dist/browser/standalone.js', name: 'scalar-standalone.js' };

/** The OpenAPI document's file beside the bundle. */
export const OPENAPI_FILE = 'openapi.json';

/**
 * The operator console's manifest beside the bundle (`{ script, style }`: the names of its
 * fingerprinted files, written beside it by write-console.ts).
 */
export const CONSOLE_MANIFEST = 'console-manifest.json';

/** Set by the Lambda runtime: the code is the bundle, beside which the shipped files are. */
export const inLambda = (): boolean => Boolean(process.env.AWS_LAMBDA_FUNCTION_NAME);

/**
 * Shell commands NodejsFunction runs after bundling the docs function (local bundling: inputDir is
 * the repository, outputDir the asset directory): copy the script, write the document with the
 * repository's tsx (a devDependency, installed wherever the stack is synthesized).
 */
export function docsAfterBundlingCommands(inputDir: string, outputDir: string): string[] {
  return [
    `cp "${inputDir}/${scalarScript.source}" "${outputDir}/${scalarScript.name}"`,
    // The registry's modules read TABLE_NAME when loaded (shared/config.ts); the document never uses it.
    `TABLE_NAME=openapi-build "${inputDir}/node_modules/.bin/tsx" "${inputDir}/functions/docs/write-document.ts" "${outputDir}/${OPENAPI_FILE}"`,
    // The console's browser files, built with esbuild (a devDependency, like tsx).
    `"${inputDir}/node_modules/.bin/tsx" "${inputDir}/functions/docs/write-console.ts" "${outputDir}"`,
  ];
}
