// Runs StrykerJS through its API with stryker.config.mjs (`npm run mutate`).
// Why not `stryker run`: StrykerJS 10 declares Node >= 22 and its CLI refuses to start on older
// versions, while this project supports Node >= 20 (and the dev machines run 20). The guard sits
// in the CLI module, which the package entry re-exports, so the Stryker class is imported from its
// own file; the run itself works on Node 20. On Node 22+ `npx stryker run` is equivalent.
//
// `npm run mutate -- shared/events/event-matching.ts shared/call-config/state-limits.ts` mutates
// only the files named (a per-module run while writing tests); `--concurrency=N` sets the workers.
import { Stryker } from '../node_modules/@stryker-mutator/core/dist/src/stryker.js';

const args = process.argv.slice(2);
const files = args.filter((arg) => !arg.startsWith('--'));
const concurrency = args.find((arg) => arg.startsWith('--concurrency='))?.split('=')[1];
const options = {
  // `--incremental` re-tests only mutants whose code or tests changed since the last run (quick, but
  // it can keep stale results for static mutants: record scores from a full run).
  incremental: args.includes('--incremental'),
  ...(files.length > 0 ? { mutate: files } : {}),
  ...(concurrency ? { concurrency: Number(concurrency) } : {}),
};
const results = await new Stryker(options).runMutationTest();
// A mutant run that could not start (e.g. the unit tests fail without mutants) throws above;
// the score itself never fails the command (thresholds.break is off: this is not a CI gate).
process.exitCode = results.length > 0 ? 0 : 1;
