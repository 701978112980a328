import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // One DynamoDB Local for the whole run; each test file works in companies of its own.
    globalSetup: ['test/setup/global-dynamodb.ts'],
    setupFiles: ['test/setup/env.ts'],
    pool: 'forks',
    testTimeout: 30_000,
    hookTimeout: 120_000,
  },
});
