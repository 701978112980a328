import { describe, expect, it } from 'vitest';
import suite from '../../vitest.config.js';
import unit from '../../vitest.unit.config.js';

/**
 * The test runs keep vitest's transformed modules to themselves (docs/testing.md, "Module
 * cache"): with the module cache on disk, which vitest 5 turns on by default and every run of a
 * checkout shares, a run that clears it deletes files another run's workers are about to read,
 * and a module loaded on first use inside a request fails with ENOENT: the gateway answers 500
 * and the route fuzz reports a 5xx the service never gives.
 */
describe('the vitest configurations', () => {
  it.each([
    ['vitest.config.ts', suite],
    ['vitest.unit.config.ts', unit],
  ])('%s turns the shared module cache off', (_name, config) => {
    expect((config as { test?: { fsModuleCache?: boolean } }).test?.fsModuleCache).toBe(false);
  });
});
