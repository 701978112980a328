// Mutation testing of the pure domain modules against the fast unit tests (`npm run mutate`).
// Not part of CI: run it by hand after changing these modules and update docs/testing.md.
/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  testRunner: 'vitest',
  // Only test/unit/** and no DynamoDB Local: every mutant is judged by plain-value tests.
  vitest: { configFile: 'vitest.unit.config.ts' },
  // Pure modules only; their I/O neighbours (counters.ts, rate-limits.ts, reservations.ts,
  // router.ts, claim.ts, call-flow.ts, call-config/ivr.ts, contact-imports/import-run.ts) are
  // covered by the integration and API suites instead.
  mutate: [
    'shared/buyers/schedule.ts',
    'shared/buyers/counter-model.ts',
    'shared/buyers/limits.ts',
    'shared/buyers/conversion-terms.ts',
    'shared/routing/route-buyers.ts',
    'shared/routing/token-filters.ts',
    'shared/calls/conversions.ts',
    'shared/http/cursor.ts',
    'shared/db/keys.ts',
    'shared/events/retry-schedule.ts',
    'shared/events/trigger-fields.ts',
    'shared/events/fire-status.ts',
    'shared/events/payload.ts',
    'shared/events/webhook-tokens.ts',
    'shared/events/templates.ts',
    'shared/outbound/address-policy.ts',
    'shared/events/event-matching.ts',
    'shared/call-config/router-matching.ts',
    'shared/call-config/state-limits.ts',
    'shared/call-config/caller-state.ts',
    'shared/call-config/inbound-config.ts',
    'shared/call-config/inbound-tokens.ts',
    'shared/call-config/text-match.ts',
    'shared/contact-imports/csv-rows.ts',
    'shared/contact-imports/import-rows.ts',
  ],
  coverageAnalysis: 'perTest',
  // The machine is shared: two workers at most.
  concurrency: 2,
  timeoutMS: 10_000,
  reporters: ['clear-text', 'progress', 'html', 'json'],
  htmlReporter: { fileName: 'reports/mutation/index.html' },
  jsonReporter: { fileName: 'reports/mutation/mutation.json' },
  // Full runs by default: incremental mode reuses earlier results of static mutants (module-level
  // constants such as regexes and the key builders object) even after new tests would kill them.
  // `npm run mutate -- --incremental` opts in for a quick check while writing tests.
  incrementalFile: 'reports/stryker-incremental.json',
  tempDirName: '.stryker-tmp',
  cleanTempDir: 'always',
  thresholds: { high: 90, low: 85, break: null },
};
