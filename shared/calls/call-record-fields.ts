/**
 * The call fields reporting clients of the hosted service copy into their own databases
 * (docs/compatibility.md, "The call record"), each derived from what the stored call holds: its
 * attempts, its timeline and its tokens. A client that deserializes strictly crashes on a missing
 * key, so every one is always present; a field this service cannot know is null (the reason is
 * in docs/compatibility.md), never an invented value. Pure.
 */

/** The derived columns, in the order they follow the others in CALL_COLUMNS. */
export const REPORTING_COLUMNS = [
  'name',
  'category',
  'number_called',
  'connected_to',
  'user_offer_id',
  'user_traffic_source_id',
  'user_buyer_id',
  'obfuscated_caller_number',
  'token_values',
  'ring_duration',
  'ivr_duration',
  'hold_duration',
  'attempted_duration',
  'agent_duration',
  'sub_id',
  'schedule_id',
  'schedule_name',
  'ring_pool_id',
  'buyer_repeat_caller',
  'traffic_source_converted',
  'traffic_source_repeat_caller',
  'service_cost',
  'trackdrive_cost',
  'provider_cost',
  'call_sid',
  'provider',
  'outgoing_webhooks_count',
  'contact_field_type',
  'disposition_id',
  'disposition_key',
  'disposition_name',
  'disposition_notes',
  'hangup_cause',
  'quality_assurance_id',
  'quality_assurance_name',
  'quality_assurance_user_id',
] as const;

interface TimelineEntry {
  at?: unknown;
  type?: unknown;
  attempt?: unknown;
  number?: unknown;
  reason?: unknown;
  status?: unknown;
}

interface StoredAttempt {
  attempt?: unknown;
  agent_id?: unknown;
  started_at?: unknown;
  answered_at?: unknown;
  answered_duration?: unknown;
  status?: unknown;
}

function ms(value: unknown): number | undefined {
  if (typeof value !== 'string') return undefined;
  const parsed = Date.parse(value);
  return Number.isNaN(parsed) ? undefined : parsed;
}

function seconds(fromMs: number, toMs: number): number {
  return Math.max(0, Math.round((toMs - fromMs) / 1000));
}

function listOf<T>(value: unknown): T[] {
  return Array.isArray(value) ? (value as T[]) : [];
}

/** When each attempt stopped ringing or talking, by attempt number: its dial_ended entry (else the call's end). */
function attemptEnds(timeline: readonly TimelineEntry[]): Map<number, number> {
  const ends = new Map<number, number>();
  for (const entry of timeline) {
    const at = ms(entry.at);
    if (entry.type === 'dial_ended' && typeof entry.attempt === 'number' && at !== undefined) ends.set(entry.attempt, at);
  }
  return ends;
}

/**
 * Ring, IVR, attempt and agent times of a call, in seconds. Ringing: from each attempt's dial to
 * its answer (or its end when nobody answered); attempted: from each dial to that attempt's end,
 * talk included; agent: the talk time of attempts that rang a call center agent; IVR: from the
 * call's arrival to its first dial when a menu played first (0 without a menu). Null while a
 * call is live and the figure is still growing.
 */
export function callDurations(call: Record<string, unknown>): { ring_duration: number | null; ivr_duration: number | null; attempted_duration: number | null; agent_duration: number | null } {
  const timeline = listOf<TimelineEntry>(call.timeline);
  const attempts = listOf<StoredAttempt>(call.attempts);
  const endedMs = ms(call.ended_at);
  if (call.in_progress === true || endedMs === undefined) return { ring_duration: null, ivr_duration: null, attempted_duration: null, agent_duration: null };
  const ends = attemptEnds(timeline);
  let ring = 0;
  let attempted = 0;
  let agent = 0;
  attempts.forEach((attempt, index) => {
    const number = typeof attempt.attempt === 'number' ? attempt.attempt : index + 1;
    const started = ms(attempt.started_at);
    const answered = ms(attempt.answered_at);
    const end = ends.get(number) ?? endedMs;
    if (started === undefined) return;
    ring += seconds(started, answered ?? end);
    attempted += seconds(started, end);
    if (attempt.agent_id !== undefined && attempt.agent_id !== null) agent += Number(attempt.answered_duration ?? 0) || 0;
  });
  const arrived = ms(timeline.find((entry) => entry.type === 'incoming')?.at) ?? ms(call.created_at);
  const menu = timeline.some((entry) => entry.type === 'router');
  const firstDial = ms(timeline.find((entry) => entry.type === 'dial')?.at);
  const ivr = !menu || arrived === undefined ? 0 : seconds(arrived, firstDial ?? endedMs);
  return { ring_duration: ring, ivr_duration: ivr, attempted_duration: attempted, agent_duration: agent };
}

/** The number the answered attempt was connected to (its dial entry), or null. */
export function connectedTo(call: Record<string, unknown>): string | null {
  const answered = listOf<StoredAttempt>(call.attempts).find((attempt) => typeof attempt.answered_at === 'string');
  if (!answered || typeof answered.attempt !== 'number') return null;
  const dial = listOf<TimelineEntry>(call.timeline).find((entry) => entry.type === 'dial' && entry.attempt === answered.attempt);
  return typeof dial?.number === 'string' ? dial.number : null;
}

/** The call's tokens as `key:value` strings, the reference's token filter syntax. */
export function tokenValues(data: unknown): string[] {
  if (!data || typeof data !== 'object' || Array.isArray(data)) return [];
  return Object.entries(data as Record<string, unknown>)
    .filter(([, value]) => value !== null && value !== undefined && typeof value !== 'object')
    .map(([key, value]) => `${key}:${String(value)}`);
}

/** Why the call ended: the reason its end gave, else its final status; null while live. */
export function hangupCause(call: Record<string, unknown>): string | null {
  if (call.in_progress === true) return null;
  const ended = listOf<TimelineEntry>(call.timeline).find((entry) => entry.type === 'ended' || entry.type === 'blocked' || entry.type === 'state_limited');
  if (typeof ended?.reason === 'string' && ended.reason) return ended.reason;
  return typeof call.status === 'string' ? call.status : null;
}

function text(value: unknown): string | null {
  return typeof value === 'string' && value !== '' ? value : typeof value === 'number' ? String(value) : null;
}

/**
 * Every REPORTING_COLUMNS field of a stored call. `external` holds the external ids of the call's
 * traffic source and buyer when the caller read them (functions/calls/call-external-ids.ts).
 */
export function reportingFields(call: Record<string, unknown>, external: { user_traffic_source_id?: string | null; user_buyer_id?: string | null } = {}): Record<(typeof REPORTING_COLUMNS)[number], unknown> {
  const data = call.data && typeof call.data === 'object' && !Array.isArray(call.data) ? (call.data as Record<string, unknown>) : {};
  const disposition = call.disposition && typeof call.disposition === 'object' ? (call.disposition as Record<string, unknown>) : undefined;
  return {
    name: null,
    category: null,
    number_called: text(call.number),
    connected_to: connectedTo(call),
    user_offer_id: null,
    user_traffic_source_id: external.user_traffic_source_id ?? null,
    user_buyer_id: external.user_buyer_id ?? null,
    obfuscated_caller_number: null,
    token_values: tokenValues(call.data),
    ...callDurations(call),
    hold_duration: null,
    sub_id: text(data.sub_id),
    schedule_id: null,
    schedule_name: null,
    ring_pool_id: typeof call.ring_pool_id === 'number' ? call.ring_pool_id : null,
    buyer_repeat_caller: null,
    traffic_source_converted: typeof call.offer_converted === 'boolean' ? call.offer_converted : false,
    traffic_source_repeat_caller: null,
    service_cost: null,
    trackdrive_cost: null,
    provider_cost: null,
    call_sid: text(call.carrier_call_id),
    provider: text(call.carrier),
    outgoing_webhooks_count: null,
    contact_field_type: null,
    disposition_id: typeof call.call_disposition_id === 'number' ? call.call_disposition_id : null,
    disposition_key: text(disposition?.key),
    disposition_name: text(disposition?.name),
    disposition_notes: text(disposition?.notes),
    hangup_cause: hangupCause(call),
    quality_assurance_id: null,
    quality_assurance_name: null,
    quality_assurance_user_id: null,
  };
}
