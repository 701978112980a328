/**
 * The smoke test's step runner: steps in order, each timed, one result line each. A step whose
 * prerequisite failed or was skipped is skipped (it could only fail for the same reason); a step
 * may skip itself with a reason (an option not given). Clean-up steps run whatever happened
 * before them. No I/O here but the clock passed in.
 */
export interface SmokeStep<Context> {
  name: string;
  /** Steps that must have passed first. */
  needs?: readonly string[];
  /** Runs even when earlier steps failed (deleting what the run created). */
  always?: boolean;
  /** Throws to fail (its message is shown); returns a skip reason to skip, or a detail to show. */
  run(context: Context): Promise<void | { skip: string } | { detail: string }>;
}

export interface SmokeResult {
  name: string;
  outcome: 'pass' | 'fail' | 'skip';
  ms: number;
  /** Why it failed or was skipped, or what it found. */
  detail?: string;
}

export async function runSmokeSteps<Context>(
  steps: readonly SmokeStep<Context>[],
  context: Context,
  options: { now?: () => number; onResult?: (result: SmokeResult) => void } = {},
): Promise<SmokeResult[]> {
  const now = options.now ?? (() => performance.now());
  const results: SmokeResult[] = [];
  const outcomes = new Map<string, SmokeResult['outcome']>();
  for (const step of steps) {
    const blocked = (step.needs ?? []).filter((name) => outcomes.get(name) !== 'pass');
    let result: SmokeResult;
    if (blocked.length && !step.always) {
      result = { name: step.name, outcome: 'skip', ms: 0, detail: `needs ${blocked.join(', ')}` };
    } else {
      const started = now();
      try {
        const answer = await step.run(context);
        const ms = Math.round(now() - started);
        result =
          answer && 'skip' in answer
            ? { name: step.name, outcome: 'skip', ms, detail: answer.skip }
            : { name: step.name, outcome: 'pass', ms, ...(answer && 'detail' in answer ? { detail: answer.detail } : {}) };
      } catch (error) {
        result = { name: step.name, outcome: 'fail', ms: Math.round(now() - started), detail: error instanceof Error ? error.message : String(error) };
      }
    }
    outcomes.set(step.name, result.outcome);
    results.push(result);
    options.onResult?.(result);
  }
  return results;
}

/** `PASS  openapi document (120 ms)`: the line printed per step. */
export function formatSmokeResult(result: SmokeResult): string {
  const label = { pass: 'PASS', fail: 'FAIL', skip: 'SKIP' }[result.outcome];
  return `${label}  ${result.name} (${result.ms} ms)${result.detail ? `: ${result.detail}` : ''}`;
}

/** Failed when any step failed; skips do not fail the run. */
export function smokeFailed(results: readonly SmokeResult[]): boolean {
  return results.some((result) => result.outcome === 'fail');
}

/**
 * Replaces every occurrence of the secrets in `text` (keys, the carrier token, a subscription's
 * signing secret) so no result line can print one, whatever an answer echoed back.
 */
export function redactSecrets(text: string, secrets: readonly (string | undefined)[]): string {
  let out = text;
  for (const secret of secrets) if (secret && secret.length >= 6) out = out.split(secret).join('[redacted]');
  return out;
}
