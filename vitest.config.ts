import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // One DynamoDB Local for the whole run; each test file works in companies of its own.
    globalSetup: ['test/setup/global-dynamodb.ts'],
    setupFiles: ['test/setup/env.ts'],
    pool: 'forks',
    // No module cache on disk (vitest 5 keeps one in node_modules/.vitest-cache by default). It is
    // shared by every vitest run of the checkout, and a run that clears it (the lockfile changed,
    // --clearCache) deletes files another run's workers are about to read: a module loaded on first
    // use inside a request (lazy operations, behaviours) then fails with ENOENT and the local gateway
    // answers 500 (docs/testing.md, "Module cache"). Without it each run transforms in memory and
    // hands its workers copies in a temporary folder of its own.
    fsModuleCache: false,
    testTimeout: 30_000,
    hookTimeout: 120_000,
  },
});
