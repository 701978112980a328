import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { LAMBDA_RUNTIME } from '../../infra/constructs/function-defaults.js';

/**
 * Local runs and tests use the Lambda runtime's Node.js major: the `node` devDependency puts its
 * binary in node_modules/.bin, which npm scripts and npx put first on PATH. Started outside them
 * (`node_modules/.bin/vitest` from a shell on the machine's Node) this file fails, on purpose.
 */
const lambdaMajor = Number(/^nodejs(\d+)\.x$/.exec(LAMBDA_RUNTIME.name)?.[1]);
const majorOf = (version: string): number => Number(version.trim().split('.')[0]);
const printVersion = 'console.log(process.versions.node)';

describe('the Node.js the project runs on', () => {
  it('is the Lambda runtime\'s major in the test process (and so in the vitest workers and process.execPath children)', () => {
    expect(lambdaMajor).toBeGreaterThan(0);
    expect(majorOf(process.versions.node)).toBe(lambdaMajor);
  });

  it.each([
    // What `#!/usr/bin/env node` resolves to: npm, tsx, cdk, stryker, and the DynamoDB Local launcher's `npm pack`.
    ['`node` from PATH', 'node', ['-e', printVersion]],
    // How the smoke test starts the local service (`npm start`) and the CLIs.
    ['the tsx binary', join(process.cwd(), 'node_modules', '.bin', 'tsx'), ['-e', printVersion]],
    // How `npx cdk synth` runs cdk.json's app (`npx tsx infra/app.ts`).
    ['tsx through npx', 'npm', ['exec', '--no', '--', 'tsx', '-e', printVersion]],
  ])('is the same major in a child started through %s', (_how, command, args) => {
    // Without npm's own `call` setting: inside `npm exec -c '...'` it would make the nested npm exec a usage error.
    const { npm_config_call: _call, ...env } = process.env;
    const child = spawnSync(command, args, { encoding: 'utf8', env });
    expect(child.status, child.stderr).toBe(0);
    expect(majorOf(child.stdout)).toBe(lambdaMajor);
  });
});
