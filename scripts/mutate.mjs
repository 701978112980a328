// Runs StrykerJS through its API with stryker.config.mjs (`npm run mutate`).
// Why not `stryker run`: StrykerJS 10 declares Node >= 22 and its CLI refuses to start on older
// versions, while this project supports Node >= 20 (and the dev machines run 20). The guard sits
// in the CLI module, which the package entry re-exports, so the Stryker class is imported from its
// own file; the run itself works on Node 20. On Node 22+ `npx stryker run` is equivalent.
import { Stryker } from '../node_modules/@stryker-mutator/core/dist/src/stryker.js';

// `--incremental` re-tests only mutants whose code or tests changed since the last run (quick, but
// it can keep stale results for static mutants: record scores from a full run).
const results = await new Stryker({ incremental: process.argv.includes('--incremental') }).runMutationTest();
// A mutant run that could not start (e.g. the unit tests fail without mutants) throws above;
// the score itself never fails the command (thresholds.break is off: this is not a CI gate).
process.exitCode = results.length > 0 ? 0 : 1;
