import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { cruise, type IForbiddenRuleType, type IViolation } from 'dependency-cruiser';
import extractTSConfig from 'dependency-cruiser/config-utl/extract-ts-config';
import { afterAll, describe, expect, it } from 'vitest';

/**
 * The import rules of .dependency-cruiser.cjs (docs/architecture.md): no circles, type imports
 * included, and no import from a lower layer to a higher one. Run through dependency-cruiser's
 * API rather than its CLI: one cruise serves the real tree and the fixture below.
 */
const config = createRequire(import.meta.url)('../../.dependency-cruiser.cjs') as {
  forbidden: IForbiddenRuleType[];
  options: { tsPreCompilationDeps: boolean; doNotFollow: { path: string }; exclude: { path: string } };
};

async function violations(roots: string[], baseDir: string, tsConfigFile?: string): Promise<IViolation[]> {
  const { tsConfig: _tsConfig, ...options } = config.options as typeof config.options & { tsConfig?: unknown };
  const result = await cruise(
    roots,
    { ...options, baseDir, validate: true, ruleSet: { forbidden: config.forbidden }, ...(tsConfigFile ? { tsConfig: { fileName: tsConfigFile } } : {}) },
    {},
    tsConfigFile ? { tsConfig: extractTSConfig(path.join(baseDir, tsConfigFile)) } : {},
  );
  if (typeof result.output === 'string') throw new Error('expected the cruise result as an object');
  return result.output.summary.violations;
}

const described = (found: IViolation[]) => found.map((violation) => `${violation.rule.name}: ${violation.from} -> ${violation.to}${violation.cycle ? ` (circle ${violation.cycle.map((step) => step.name).join(' -> ')})` : ''}`);

describe('import rules', () => {
  it('hold across shared, functions and infra', async () => {
    const found = await violations(['shared', 'functions', 'infra'], process.cwd(), 'tsconfig.json');
    expect(described(found)).toEqual([]);
  }, 120_000);

  // A tiny tree breaking each rule once, so that a rule that could never fire would show here.
  const fixture = mkdtempSync(path.join(tmpdir(), 'dependency-rules-'));
  afterAll(() => rmSync(fixture, { recursive: true, force: true }));
  const files: Record<string, string> = {
    // A circle through type imports only, between two domains.
    'shared/leads/a.ts': "import type { B } from '../routing/b';\nexport type A = { b?: B };\n",
    'shared/routing/b.ts': "import type { A } from '../leads/a';\nexport type B = { a?: A };\n",
    // A circle between the call engine and agents (the one the split of call-flow.ts removed).
    'shared/calls/flow.ts': "import { agent } from '../agents/agent';\nexport const flow = () => agent;\n",
    'shared/agents/agent.ts': "import { flow } from '../calls/flow';\nexport const agent = () => flow;\n",
    // Upward imports.
    'shared/db/store.ts': "import { rule } from '../buyers/rule';\nexport const store = rule;\n",
    'shared/adapters/queue.ts': "import { rule } from '../buyers/rule';\nexport const queue = rule;\n",
    'shared/buyers/rule.ts': "import { handler } from '../../functions/buyers/handler';\nexport const rule = handler;\n",
    'functions/buyers/handler.ts': 'export const handler = 1;\n',
    'shared/http/envelope.ts': "import { rule } from '../buyers/rule';\nexport const envelope = rule;\n",
    'shared/resources/engine.ts': "import { rule } from '../buyers/rule';\nexport const engine = rule;\n",
    'shared/logger.ts': "import { rule } from './buyers/rule';\nexport const logger = rule;\n",
    // The registries may list every domain's declarations.
    'shared/resources/registry.ts': "import { rule } from '../buyers/rule';\nexport const registry = [rule];\n",
  };
  for (const [file, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(fixture, file)), { recursive: true });
    writeFileSync(path.join(fixture, file), text);
  }

  it('fail on a circle (type imports included) and on each upward import, and on nothing else', async () => {
    // A circle is named by its members (dependency-cruiser reports it from one of its edges).
    const named = (violation: IViolation) =>
      violation.cycle ? `${violation.rule.name}: ${violation.cycle.map((step) => step.name).sort().join(' + ')}` : `${violation.rule.name}: ${violation.from} -> ${violation.to}`;
    const found = [...new Set((await violations(['shared', 'functions'], fixture)).map(named))];
    expect(found.sort()).toEqual(
      [
        'no-circular: shared/leads/a.ts + shared/routing/b.ts',
        'no-circular: shared/agents/agent.ts + shared/calls/flow.ts',
        'db-and-adapters-import-no-domain: shared/db/store.ts -> shared/buyers/rule.ts',
        'db-and-adapters-import-no-domain: shared/adapters/queue.ts -> shared/buyers/rule.ts',
        'shared-imports-no-entry-points: shared/buyers/rule.ts -> functions/buyers/handler.ts',
        'domains-import-no-entry-points: shared/buyers/rule.ts -> functions/buyers/handler.ts',
        'common-modules-import-no-domain: shared/logger.ts -> shared/buyers/rule.ts',
        'generic-http-imports-no-domain: shared/http/envelope.ts -> shared/buyers/rule.ts',
        'resource-engine-imports-no-domain: shared/resources/engine.ts -> shared/buyers/rule.ts',
      ].sort(),
    );
  }, 60_000);
});
