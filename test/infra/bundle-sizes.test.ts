import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import qs from 'qs';
import { describe, expect, it } from 'vitest';
import { BUNDLE_GOAL_KB, esbuildOptions, lambdaBundleFile, powertoolsLayer } from '../../infra/constructs/bundling-options.js';

/**
 * Every function's bundle stays within issue 13's size goal (BUNDLE_GOAL_KB), built with the
 * stack's esbuild options in memory (sizes are deterministic, unlike init times, so this is
 * asserted here and bench:bundles only prints timings). Functions not yet within the goal have a
 * ceiling of their own, a little above today's size, so they cannot grow unnoticed: lower a
 * ceiling when a bundle shrinks, and drop it once the bundle is within the goal
 * (docs/benchmarks.md, "Lambda bundles", says what keeps each of them above).
 */
const CEILING_KB: Readonly<Record<string, number>> = {
  // None: every bundle is within the 400 KB goal (real-time bidding brought configuration to
  // about 310 KB and voice to about 335 KB, 2026-11-28).
};

const repoRoot = fileURLToPath(new URL('../../', import.meta.url));
/** Every Lambda entry: functions/<name>/handler.ts (route groups, fallback, and the functions serving no route). */
const functionNames = readdirSync(path.join(repoRoot, 'functions'), { withFileTypes: true })
  .filter((entry) => entry.isDirectory() && existsSync(path.join(repoRoot, 'functions', entry.name, 'handler.ts')))
  .map((entry) => entry.name)
  .sort();

async function bundleOf(name: string): Promise<{ bytes: number; text: string }> {
  const outfile = path.join(repoRoot, '.bundle-size-test', name, lambdaBundleFile);
  const result = await build({ ...esbuildOptions(path.join(repoRoot, 'functions', name, 'handler.ts'), outfile), absWorkingDir: repoRoot, write: false, logLevel: 'error' });
  const code = result.outputFiles.find((file) => file.path === outfile);
  if (!code) throw new Error(`${name}: esbuild wrote no ${lambdaBundleFile}`);
  return { bytes: code.contents.byteLength, text: code.text };
}

describe('Lambda bundle sizes', () => {
  it('covers every function, and has a ceiling only for functions that exist', () => {
    expect(functionNames.length).toBeGreaterThanOrEqual(20);
    expect(Object.keys(CEILING_KB).filter((name) => !functionNames.includes(name))).toEqual([]);
  });

  it.each(functionNames)('%s is within its size budget, with node:http taken as a module object', async (name) => {
    const budgetKb = CEILING_KB[name] ?? BUNDLE_GOAL_KB;
    const bundle = await bundleOf(name);
    const kb = bundle.bytes / 1024;
    // An ESM import of node:http makes Node 24 load undici at init (~40 ms; shared/outbound/node-http.ts).
    expect(bundle.text.match(/(?:from|import)\s*"node:http"/g), `${name} imports node:http as an ES module`).toBeNull();
    expect(kb, `${name}: ${kb.toFixed(1)} KB, budget ${budgetKb} KB`).toBeLessThanOrEqual(budgetKb);
    // A ceiling above the goal is for a bundle that is above the goal: one that got within it loses its ceiling.
    if (CEILING_KB[name] !== undefined) expect(kb, `${name} is within ${BUNDLE_GOAL_KB} KB now: remove its ceiling`).toBeGreaterThan(BUNDLE_GOAL_KB);
  });
});

describe('qs, bundled whole (issue 32: no shim of ours in place of its side-channel)', () => {
  it('parses query strings exactly as qs does unbundled, with its own side-channel in the bundle', async () => {
    const dir = path.join(repoRoot, '.bundle-alias-test');
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
    try {
      writeFileSync(path.join(dir, 'entry.ts'), "import qs from 'qs';\nexport const parse = (text: string, options: object) => qs.parse(text, options);\n");
      const outfile = path.join(dir, lambdaBundleFile);
      const result = await build({ ...esbuildOptions(path.join(dir, 'entry.ts'), outfile), absWorkingDir: repoRoot, metafile: true, logLevel: 'error' });
      const inputs = Object.keys(result.metafile.inputs);
      expect(inputs.some((input) => input.includes('bundle-shims/'))).toBe(false);
      expect(inputs.some((input) => /node_modules\/side-channel\//.test(input))).toBe(true);
      const bundled = (await import(pathToFileURL(outfile).href)) as { parse: (text: string, options: object) => unknown };
      const options = { arrayLimit: 3, parameterLimit: 50, depth: 2 };
      const texts = [
        'ids[]=1&ids[]=2&trigger_fields[offer_id]=3&page=2',
        'a[]=1&a[]=2&a[]=3&a[]=4&a[]=5',
        'a[0]=x&a[7]=y&a[]=z',
        'a=1&a=2&a[b]=3',
        'a[b][c][d][e]=deep&a[b][f]=1',
        'a[]=1&a[x]=2&a[]=3',
        '__proto__[x]=1&toString=2&a[hasOwnProperty]=3',
        'a%5Bb%5D=c&d=%E2%9C%93&e=%ZZ&f+g=h+i',
        'a[1]=b&a[0]=c&a[2]=d&a[3]=e&a[4]=f',
        'x[]=&y&=z&&w[=1&v]=2',
      ];
      for (const text of texts) expect(bundled.parse(text, options), text).toEqual(qs.parse(text, options));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("the Powertools Tracer, external to every bundle and taken from Powertools' layer", () => {
  it('pins the layer to the release installed for tests and npm start, the release of the Powertools logger and metrics too', () => {
    const versionOf = (name: string) => (JSON.parse(readFileSync(path.join(repoRoot, 'node_modules', name, 'package.json'), 'utf8')) as { version: string }).version;
    for (const name of ['@aws-lambda-powertools/tracer', '@aws-lambda-powertools/logger', '@aws-lambda-powertools/metrics']) expect(versionOf(name), name).toBe(powertoolsLayer.release);
  });

  it('is not in the bundles', async () => {
    const outfile = path.join(repoRoot, '.bundle-size-test', 'voice', lambdaBundleFile);
    const result = await build({ ...esbuildOptions(path.join(repoRoot, 'functions', 'voice', 'handler.ts'), outfile), absWorkingDir: repoRoot, write: false, metafile: true, logLevel: 'error' });
    const inputs = Object.keys(result.metafile.inputs);
    expect(inputs.filter((input) => /node_modules\/(@aws-lambda-powertools\/tracer|aws-xray-sdk-core)\//.test(input))).toEqual([]);
  });
});
