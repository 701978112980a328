import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { hashed, type Asset } from './page.js';

/**
 * The operator console's browser files (shared/console/, docs/console.md), built with esbuild:
 * one minified ES module with Preact, htm and uPlot inside, and one stylesheet (ours and uPlot's).
 * Run by the stack after bundling the docs function (write-console.ts, shipped-files.ts) and, under
 * `npm start` and the tests, on the first request for the console (console-page.ts), so both serve
 * the same build of the same sources. Never part of a Lambda bundle: esbuild is a build tool.
 */
export interface ConsoleAssets {
  script: Asset;
  style: Asset;
}

const ENTRY = fileURLToPath(new URL('../../shared/console/main.ts', import.meta.url));

export async function buildConsole(): Promise<ConsoleAssets> {
  const result = await build({
    entryPoints: [ENTRY],
    bundle: true,
    write: false,
    outdir: 'console',
    format: 'esm',
    platform: 'browser',
    // Browsers of the last few years: no transpiling of classes, async or optional chaining.
    target: ['es2020', 'chrome100', 'firefox100', 'safari15'],
    minify: true,
    legalComments: 'none',
    logLevel: 'silent',
  });
  const text = (extension: string) => {
    const file = result.outputFiles.find((output) => output.path.endsWith(`.${extension}`));
    if (!file) throw new Error(`the console build wrote no .${extension} file`);
    return file.text;
  };
  return { script: hashed('console', text('js')), style: hashed('console', text('css'), 'css') };
}
