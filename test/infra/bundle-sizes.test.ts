import { readdirSync, existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';
import { BUNDLE_GOAL_KB, esbuildOptions, lambdaBundleFile } from '../../infra/constructs/bundling-options.js';

/**
 * Every function's bundle stays within issue 13's size goal (BUNDLE_GOAL_KB), built with the
 * stack's esbuild options in memory (sizes are deterministic, unlike init times, so this is
 * asserted here and bench:bundles only prints timings). Functions not yet within the goal have a
 * ceiling of their own, a little above today's size, so they cannot grow unnoticed: lower a
 * ceiling when a bundle shrinks, and drop it once the bundle is within the goal
 * (docs/benchmarks.md, "Lambda bundles", says what keeps each of them above).
 */
const CEILING_KB: Readonly<Record<string, number>> = {
  admin: 600,
  buyers: 350,
  calls: 370,
  configuration: 410,
  contacts: 440,
  inbound: 360,
  leads: 380,
  numbers: 355,
  schedules: 385,
  subscriptions: 310,
  voice: 410,
};

const repoRoot = fileURLToPath(new URL('../../', import.meta.url));
/** Every Lambda entry: functions/<name>/handler.ts (route groups, fallback, and the functions serving no route). */
const functionNames = readdirSync(path.join(repoRoot, 'functions'), { withFileTypes: true })
  .filter((entry) => entry.isDirectory() && existsSync(path.join(repoRoot, 'functions', entry.name, 'handler.ts')))
  .map((entry) => entry.name)
  .sort();

async function bundleBytes(name: string): Promise<number> {
  const outfile = path.join(repoRoot, '.bundle-size-test', name, lambdaBundleFile);
  const result = await build({ ...esbuildOptions(path.join(repoRoot, 'functions', name, 'handler.ts'), outfile), absWorkingDir: repoRoot, write: false, logLevel: 'error' });
  const code = result.outputFiles.find((file) => file.path === outfile);
  if (!code) throw new Error(`${name}: esbuild wrote no ${lambdaBundleFile}`);
  return code.contents.byteLength;
}

describe('Lambda bundle sizes', () => {
  it('covers every function, and has a ceiling only for functions that exist', () => {
    expect(functionNames.length).toBeGreaterThanOrEqual(20);
    expect(Object.keys(CEILING_KB).filter((name) => !functionNames.includes(name))).toEqual([]);
  });

  it.each(functionNames)('%s is within its size budget', async (name) => {
    const budgetKb = CEILING_KB[name] ?? BUNDLE_GOAL_KB;
    const kb = (await bundleBytes(name)) / 1024;
    expect(kb, `${name}: ${kb.toFixed(1)} KB, budget ${budgetKb} KB`).toBeLessThanOrEqual(budgetKb);
    // A ceiling above the goal is for a bundle that is above the goal: one that got within it loses its ceiling.
    if (CEILING_KB[name] !== undefined) expect(kb, `${name} is within ${BUNDLE_GOAL_KB} KB now: remove its ceiling`).toBeGreaterThan(BUNDLE_GOAL_KB);
  });
});
