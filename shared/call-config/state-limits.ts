/**
 * Which state call limits apply to a call (pure): the enabled limits of the caller's state for
 * the call's offer or for every offer. The counters are in state-limit-counters.ts.
 */
export interface StateLimit {
  id: number;
  state: string;
  offer_id: number | null;
  concurrent_limit: number | null;
  daily_limit: number | null;
  enabled: boolean;
}

export function applicableStateLimits(limits: readonly Record<string, unknown>[], state: string | undefined, offerId: number | null): StateLimit[] {
  if (!state) return [];
  return (limits as unknown as StateLimit[]).filter((limit) => limit.enabled !== false && limit.state === state && (limit.offer_id === null || limit.offer_id === offerId));
}

/** The UTC day of `at`, YYYY-MM-DD (daily limits count per UTC day). */
export function utcDay(at: Date): string {
  return at.toISOString().slice(0, 10);
}
