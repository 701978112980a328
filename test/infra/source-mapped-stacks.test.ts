import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { esbuildOptions, lambdaBundleFile } from '../../infra/constructs/bundling-options.js';
import { shownSource } from '../../shared/observability/source-mapped-stacks.js';

/**
 * Stack traces of a Lambda bundle name the TypeScript sources (shared/observability/
 * source-mapped-stacks.ts) without `--enable-source-maps`, and the map is read when a stack is
 * first formatted, not at import: the cold start no longer pays for it.
 */
const repoRoot = fileURLToPath(new URL('../../', import.meta.url));
const fixture = 'test/fixtures/stack-trace-bundle.ts';
let dir: string;
let bundle: string;

/** Imports the bundle in a fresh node (no NODE_OPTIONS), optionally removes the map after the import, and returns the handler's error stack. */
function stackFromChild(removeMapAfterImport: boolean): string {
  const script = `
    const mod = await import(${JSON.stringify(pathToFileURL(bundle).href)});
    if (${removeMapAfterImport}) (await import('node:fs')).rmSync(${JSON.stringify(`${bundle}.map`)});
    try { await mod.handler(); } catch (error) { process.stdout.write(error.stack); }
    process.exit(0);`;
  const child = spawnSync(process.execPath, ['--input-type=module', '-e', script], { env: { PATH: process.env.PATH ?? '', POWERTOOLS_LOG_LEVEL: 'SILENT' }, encoding: 'utf8', timeout: 30_000 });
  expect(child.stderr).toBe('');
  return child.stdout;
}

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'stacks-'));
  bundle = path.join(dir, lambdaBundleFile);
  await build({ ...esbuildOptions(path.join(repoRoot, fixture), bundle), absWorkingDir: repoRoot, logLevel: 'error' });
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('stack traces of a bundle', () => {
  it('name the TypeScript file, line and function, through the map next to the bundle', () => {
    const lines = readFileSync(path.join(repoRoot, fixture), 'utf8').split('\n');
    const throwLine = lines.findIndex((line) => line.includes("throw new Error('mapped on first use')")) + 1;
    const runLine = lines.findIndex((line) => line.includes('return failingStep();')) + 1;
    const stack = stackFromChild(false);
    expect(stack.split('\n')[0]).toBe('Error: mapped on first use');
    expect(stack).toContain(`at failingStep (${fixture}:${throwLine}:`);
    expect(stack).toContain(`at run (${fixture}:${runLine}:`);
    expect(stack).not.toContain(lambdaBundleFile);
  });

  it('reads the map on the first stack, not at import (a map gone by then leaves the bundle positions)', () => {
    const stack = stackFromChild(true);
    expect(stack.split('\n')[0]).toBe('Error: mapped on first use');
    expect(stack).toContain(`${lambdaBundleFile}:`);
    expect(stack).not.toContain(fixture);
  });

  it('shows repository paths for the sources the map names', () => {
    expect(shownSource('../../../work/repo/shared/calls/call-end.ts')).toBe('shared/calls/call-end.ts');
    expect(shownSource('../../node_modules/@middy/core/index.js')).toBe('node_modules/@middy/core/index.js');
    expect(shownSource('../other/place.ts')).toBe('other/place.ts');
  });
});
