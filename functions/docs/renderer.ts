import { readFile } from 'node:fs/promises';

/**
 * The reference page's renderer: Scalar's standalone browser bundle (@scalar/api-reference),
 * served by this function so the page needs nothing from outside the deployment.
 *
 * In Lambda this code runs as the esbuild bundle (infra/constructs/bundling-options.ts), into
 * which the `text` import attribute copies the script as a string. Node has no text imports (it
 * would run the file), so under `npm start` and the tests the script is read from node_modules,
 * where npm put it. Both name the same file (esbuild needs the literal in the import).
 */
const SCRIPT_FILE = new URL('../../node_modules/@scalar/api-reference/dist/browser/standalone.js', import.meta.url);

/** Set by the Lambda runtime: the code is the bundle, which holds the script. */
const inLambda = () => Boolean(process.env.AWS_LAMBDA_FUNCTION_NAME);

export async function rendererScript(): Promise<string> {
  if (inLambda()) {
    const bundled = await import('../../node_modules/@scalar/api-reference/dist/browser/standalone.js', { with: { type: 'text' } });
    return bundled.default;
  }
  return readFile(SCRIPT_FILE, 'utf8');
}
