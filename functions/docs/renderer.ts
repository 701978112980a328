import { readFile } from 'node:fs/promises';
import { inLambda, scalarScript } from './shipped-files.js';

/**
 * The reference page's renderer: Scalar's standalone browser bundle (@scalar/api-reference),
 * served by this function so the page needs nothing from outside the deployment.
 *
 * In Lambda the script is a file shipped beside the bundle (shipped-files.ts: the stack copies it
 * after bundling), read on first request (page.ts keeps it); under `npm start` and the tests it is
 * read from node_modules, where npm put it. The two are the same bytes.
 */
const besideBundle = () => new URL(`./${scalarScript.name}`, import.meta.url);
const inRepository = () => new URL(`../../${scalarScript.source}`, import.meta.url);

export async function rendererScript(): Promise<string> {
  return readFile(inLambda() ? besideBundle() : inRepository(), 'utf8');
}
