/** The scheduler entry of one step of one lead; the version makes stale and repeated fires no-ops. */
export interface LeadStepEntry {
  companyId: number;
  leadId: number;
  version: number;
}

/**
 * Runs a lead's next schedule step at a time: the design's lead waits. AWS: a one-time
 * EventBridge Scheduler schedule (`at(...)`, deleted after completion, in the stack's schedule
 * group) whose target is the lead runner; a step due within a minute goes through the runner's
 * SQS queue with a delay instead (Scheduler's precision is about a minute). Local and tests: due
 * entries kept in the table, run by a local runner on the service's clock.
 *
 * Entries are at-least-once: a fire may come twice or for a step the lead has moved past; the
 * runner compares `version` with the lead's `step_version` and claims the step before acting.
 */
export interface SchedulerPort {
  schedule(entry: LeadStepEntry, at: Date): Promise<void>;
  /** Best effort: a pending entry that is not cancelled fires and finds its version stale. */
  cancel(entry: LeadStepEntry): Promise<void>;
}
