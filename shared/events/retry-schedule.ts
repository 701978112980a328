/**
 * When a failed delivery is tried again, and when a failing subscription is disabled. Pure.
 *
 * The default is the Standard Webhooks / Svix schedule: after the first attempt, 5 s, 5 min,
 * 30 min, 2 h, 5 h, 10 h and 10 h, so 8 attempts spanning 27 h 35 min 5 s. Operators (and tests)
 * change it with WEBHOOK_RETRY_SCHEDULE, e.g. `0,0,0` for four attempts at once.
 */
export const DEFAULT_RETRY_SCHEDULE = '5s,5m,30m,2h,5h,10h,10h';

/** A subscription whose deliveries have failed for this long, and whose last attempt failed, is disabled. */
export const DEFAULT_DISABLE_AFTER = '5d';

const UNIT_SECONDS: Record<string, number> = { s: 1, m: 60, h: 3600, d: 86400 };

/** `90`, `90s`, `5m`, `2h`, `5d` in seconds; undefined for anything else. */
export function parseDuration(text: string): number | undefined {
  const match = /^(\d{1,7})([smhd]?)$/.exec(text.trim());
  if (!match) return undefined;
  return Number(match[1]) * UNIT_SECONDS[match[2] || 's']!;
}

/** SQS holds a message invisible for at most 12 hours, so no single delay may be longer. */
export const MAX_DELAY_SECONDS = 12 * 60 * 60;

/** The delays (seconds) before attempts 2, 3, ...; throws on a malformed schedule, naming the setting. */
export function parseRetrySchedule(text: string = DEFAULT_RETRY_SCHEDULE): number[] {
  const parts = text.split(',').map((part) => part.trim()).filter(Boolean);
  const delays = parts.map((part) => parseDuration(part));
  if (parts.length === 0 || parts.length > 20 || delays.some((delay) => delay === undefined || delay > MAX_DELAY_SECONDS)) {
    throw new Error(`WEBHOOK_RETRY_SCHEDULE must be 1 to 20 comma-separated delays of at most 12h (e.g. ${DEFAULT_RETRY_SCHEDULE}), not "${text}"`);
  }
  return delays as number[];
}

export interface RetryPolicy {
  /** Delays before attempts 2..n. */
  delays: readonly number[];
  /** Seconds of failing (first failure to last failed attempt) after which a subscription is disabled. */
  disableAfterSeconds: number;
}

export function retryPolicyFromEnv(env: NodeJS.ProcessEnv = process.env): RetryPolicy {
  const disableAfter = parseDuration(env.WEBHOOK_DISABLE_AFTER || DEFAULT_DISABLE_AFTER);
  if (disableAfter === undefined) throw new Error(`WEBHOOK_DISABLE_AFTER must be a duration like ${DEFAULT_DISABLE_AFTER}, not "${env.WEBHOOK_DISABLE_AFTER}"`);
  return { delays: parseRetrySchedule(env.WEBHOOK_RETRY_SCHEDULE || DEFAULT_RETRY_SCHEDULE), disableAfterSeconds: disableAfter };
}

/** Attempts in all: the first one and one after each delay. */
export function maxAttempts(policy: RetryPolicy): number {
  return policy.delays.length + 1;
}

/** Seconds to wait after failed attempt `attempt` (1-based) before the next; undefined after the last. */
export function delayAfter(policy: RetryPolicy, attempt: number): number | undefined {
  return attempt >= 1 ? policy.delays[attempt - 1] : undefined;
}

/** Seconds from the first attempt to the last, if every attempt fails (documented span). */
export function scheduleSpanSeconds(policy: RetryPolicy): number {
  return policy.delays.reduce((sum, delay) => sum + delay, 0);
}

/**
 * Whether a subscription should be disabled now: its deliveries have failed since `failingSince`,
 * the attempt that just failed was a delivery's last, and the failing has lasted long enough.
 */
export function shouldDisable(policy: RetryPolicy, failingSince: Date | undefined, lastAttemptFailed: boolean, now: Date): boolean {
  if (!lastAttemptFailed || !failingSince) return false;
  return now.getTime() - failingSince.getTime() >= policy.disableAfterSeconds * 1000;
}
