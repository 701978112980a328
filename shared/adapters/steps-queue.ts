/**
 * The lead runner's steps queue, as the stack creates it (infra/constructs/lead-runner.ts), here
 * so the local background work (shared/adapters/local/table-work.ts) keeps the same counts
 * without loading the CDK.
 */

/** The runner's timeout: a step reads the lead and its schedule, may dial (one carrier request) and saves. */
export const LEAD_RUNNER_TIMEOUT_SECONDS = 60;
/** A received message stays invisible this long (six times the runner's timeout, as AWS advises for a Lambda event source). */
export const STEPS_VISIBILITY_TIMEOUT_SECONDS = LEAD_RUNNER_TIMEOUT_SECONDS * 6;
/** Receives of a queued step before it goes to the steps dead-letter queue. */
export const STEP_MAX_RECEIVES = 5;
