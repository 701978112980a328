import { defineConfig } from 'vitest/config';

/**
 * The fast unit tests alone (plain values, no DynamoDB Local): what `npm run mutate` runs
 * against every mutant. `npm test` uses vitest.config.ts and runs everything.
 */
export default defineConfig({
  test: {
    include: ['test/unit/**/*.test.ts'],
    setupFiles: ['test/setup/unit-env.ts'],
    pool: 'forks',
    // Not shared with other runs of the checkout (vitest.config.ts says why).
    fsModuleCache: false,
    testTimeout: 30_000,
  },
});
