import { applyCounterChange } from '../buyers/counters.js';
import { buyerTimeZone } from '../buyers/limits.js';
import { getRecord } from '../db/records.js';
import { publishStaged, stageMessages } from '../events/outbox.js';
import { ValidationError } from '../http/errors.js';
import type { QueueMessage } from '../ports/events.js';
import { dataProblems } from './call-limits.js';
import { callFigures, rollupWrites } from './call-end.js';
import type { Call } from './call-states.js';
import { timeline } from './call-timeline.js';
import { transition } from './call-transition.js';
import { cents } from './conversions.js';
import type { CallFigures } from './rollups.js';

/** Changes of a call besides its flow: through the API, recordings, transcriptions, timeline notes. */

/**
 * Merges `data` from an API request into the call's data hash (keys given win; the others stay).
 * A merge past the data limits is a 422 naming `data`, thrown before anything is saved.
 */
function mergeData(call: Call, data: unknown): void {
  if (!data || typeof data !== 'object' || Array.isArray(data)) return;
  const merged = { ...(call.data && typeof call.data === 'object' ? call.data : {}), ...data } as Record<string, unknown>;
  const problems = dataProblems(merged);
  if (problems.length) throw new ValidationError({ data: problems.map((problem) => `${problem} with the call's existing data`) });
  call.data = merged;
}

/**
 * A change made through the API (revenue, payout, conversion flags, contact fields): saved with
 * the rollup difference in the same write; buyer counters follow revenue and conversion changes.
 * `changes.data` is merged into the call's data (inside the versioned save, so a concurrent
 * merge is not lost), every other field replaces its value.
 */
export async function adjustCall(companyId: number, callId: number, changes: Record<string, unknown>, at: Date): Promise<Call> {
  let before: CallFigures | undefined;
  const { call } = await transition(companyId, callId, async (call) => {
    before = call.rolled_up ? callFigures(call) : undefined;
    const { data, ...fields } = changes;
    Object.assign(call, fields);
    if ('data' in changes) mergeData(call, data);
    if ('revenue' in changes) {
      call.buyer_revenue = call.revenue;
      // A payout that is a share of the buyer revenue follows it, unless a payout is set too.
      if (!('payout' in changes) && call.offer_converted && typeof call.offer_conversion_id === 'number') {
        const rule = await getRecord(companyId, 'offer_conversions', call.offer_conversion_id);
        if (rule?.payout_type === 'buyer_conversion_percent') {
          const percent = Number(rule.revenue_percentage ?? rule.payout ?? 0);
          call.payout = cents((Number(call.revenue ?? 0) * percent) / 100);
        }
      }
    }
    if ('payout' in changes || 'revenue' in changes) call.traffic_source_payout = call.payout;
    call.profit = cents(Number(call.revenue ?? 0) - Number(call.payout ?? 0));
    call.user_updated_at = at.toISOString();
    timeline(call, at, 'updated', { fields: Object.keys(changes) });
    return { result: undefined, save: true, alongside: before ? rollupWrites(companyId, before, callFigures(call)) : [], events: ['call_changed'] };
  }, at);
  const buyerId = (call.converted_buyer_id ?? call.buyer_id) as number | null;
  if (before && buyerId !== null) {
    const revenueDelta = cents(Number(call.revenue ?? 0) - before.revenue);
    const conversionDelta = (call.buyer_converted ? 1 : 0) - (before.buyer_converted ? 1 : 0);
    if (revenueDelta !== 0 || conversionDelta !== 0) {
      const buyer = await getRecord(companyId, 'buyers', buyerId);
      if (buyer) {
        await applyCounterChange(companyId, buyerId, buyerTimeZone(buyer), at, {
          increments: { revenue: revenueDelta, earned_revenue: revenueDelta, buyer_conversion: conversionDelta },
        });
      }
    }
  }
  return call;
}

/**
 * Records an event on a call's timeline (key presses, hang-up requests), merging `data` into the
 * call's data; `messages` (a key press's webhook) go to the outbox in the same save.
 */
export async function recordOnTimeline(companyId: number, callId: number, type: string, detail: Record<string, unknown>, at: Date, data?: Record<string, unknown>, messages: readonly QueueMessage[] = []): Promise<Call> {
  const outbox = stageMessages(companyId, messages, at);
  const { call } = await transition(companyId, callId, async (call) => {
    timeline(call, at, type, detail);
    if (data) mergeData(call, data);
    return { result: undefined, save: true, alongside: outbox.writes };
  }, at);
  await publishStaged(outbox.staged);
  return call;
}

/**
 * The carrier's recording callback: stores `recording_url` and `has_recording` on the call
 * (once; a retried callback with the same URL changes nothing). True when this saved it.
 */
export async function recordingReady(companyId: number, callId: number, recordingUrl: string, at: Date): Promise<boolean> {
  const { saved } = await transition(companyId, callId, async (call) => {
    if (call.recording_url === recordingUrl) return { result: undefined, save: false };
    call.recording_url = recordingUrl;
    call.has_recording = true;
    timeline(call, at, 'recording', { recording_url: recordingUrl });
    return { result: undefined, save: true, events: ['call_changed'] };
  }, at);
  return saved;
}

/** A change of a call's transcription (shared/call-config/transcription-jobs.ts); `tags` are added to the call's. */
export interface TranscriptionChange {
  status: 'in_progress' | 'completed' | 'failed';
  transcript?: string | null;
  keywordGroupIds?: number[];
  tags?: string[];
}

/**
 * The transcription of a call's recording started, finished or failed: its fields, a
 * `transcription` timeline entry and `call_changed`, in one versioned save. Not a user's change
 * (no user_updated_at); a repeated settle with the same values saves nothing.
 */
export async function transcriptionChanged(companyId: number, callId: number, change: TranscriptionChange, at: Date): Promise<boolean> {
  const { saved } = await transition(companyId, callId, async (call) => {
    const earlier = Array.isArray(call.tags) ? (call.tags as string[]) : [];
    const fields: Record<string, unknown> = { transcription_status: change.status };
    if (change.transcript !== undefined) fields.transcription = change.transcript;
    if (change.keywordGroupIds) fields.transcription_keyword_group_ids = change.keywordGroupIds;
    if (change.tags) fields.tags = [...new Set([...earlier, ...change.tags])];
    if (Object.entries(fields).every(([key, value]) => JSON.stringify(call[key] ?? null) === JSON.stringify(value))) return { result: undefined, save: false };
    Object.assign(call, fields);
    timeline(call, at, 'transcription', { status: change.status });
    return { result: undefined, save: true, events: ['call_changed'] };
  }, at);
  return saved;
}
