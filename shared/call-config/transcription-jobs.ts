import { transcriptionPort } from '../adapters/transcription.js';
import { transcriptionChanged } from '../calls/call-flow.js';
import { getCall } from '../calls/call-store.js';
import { getRecord, queryAllRecords, updateRecord } from '../db/records.js';
import { ValidationError } from '../http/errors.js';
import { logger } from '../logger.js';
import type { HookContext } from '../resources/define.js';
import type { TranscriptionResult } from '../ports/transcription.js';
import { matchingGroups, tagsOf, type KeywordGroup } from './keyword-matcher.js';

/**
 * Transcription jobs: of a call's recording once the carrier's recording callback stored it
 * (recording-effects.ts), and of standalone transcriptions. A job is started through the
 * transcription port under a name that says what it is for; when its result is there
 * (at once locally; in AWS when the "Transcribe Job State Change" event reaches
 * functions/transcription/handler.ts) `settleTranscription` stores the transcript on its target
 * and tags it with the keyword groups it matches. Settling twice stores the same values.
 */

/** Longest transcript stored (about half an hour of speech); the rest is cut, so items stay bounded. */
export const MAX_TRANSCRIPT_CHARS = 20_000;

type TargetKind = 'call' | 'standalone';
interface Target {
  kind: TargetKind;
  companyId: number;
  id: number;
}

/** Job names are unique per account and region: a prefix per stack (TRANSCRIPTION_JOB_PREFIX). */
function jobPrefix(): string {
  return (process.env.TRANSCRIPTION_JOB_PREFIX || 'calltracking').replace(/[^0-9A-Za-z._-]/g, '-').slice(0, 60);
}

export function jobName(target: Target): string {
  return `${jobPrefix()}-${target.companyId}-${target.kind}-${target.id}`;
}

/** The target a job name stands for; undefined for another stack's or a foreign job. */
export function targetOfJob(name: string): Target | undefined {
  const prefix = `${jobPrefix()}-`;
  if (!name.startsWith(prefix)) return undefined;
  const match = /^(\d{1,15})-(call|standalone)-(\d{1,20})$/.exec(name.slice(prefix.length));
  if (!match) return undefined;
  return { companyId: Number(match[1]), kind: match[2] as TargetKind, id: Number(match[3]) };
}

async function keywordGroups(companyId: number): Promise<Array<KeywordGroup & Record<string, unknown>>> {
  // Read once per finished transcript, off the call path; a company's groups are a short list.
  return (await queryAllRecords(companyId, 'transcription_keyword_groups')) as unknown as Array<KeywordGroup & Record<string, unknown>>;
}

/** What a finished job stores on its target. */
async function outcome(companyId: number, result: Exclude<TranscriptionResult, { status: 'in_progress' }>, offerId: number | null) {
  if (result.status === 'failed') return { status: 'failed' as const, transcript: null, groupIds: [] as number[], tags: [] as string[], reason: result.reason.slice(0, 500) };
  const transcript = result.transcript.slice(0, MAX_TRANSCRIPT_CHARS);
  const matched = matchingGroups(transcript, await keywordGroups(companyId), offerId);
  return { status: 'completed' as const, transcript, groupIds: matched.map((group) => group.id), tags: tagsOf(matched), reason: null };
}

/** Reads a job's result and, when it has finished, stores it on the call or standalone transcription it is for. */
export async function settleTranscription(name: string, at: Date): Promise<void> {
  const target = targetOfJob(name);
  if (!target) return;
  const result = await transcriptionPort().result(name);
  if (result.status === 'in_progress') return;
  if (target.kind === 'call') {
    const call = await getCall(target.companyId, target.id);
    if (!call) return;
    const done = await outcome(target.companyId, result, call.offer_id);
    await transcriptionChanged(target.companyId, target.id, { status: done.status, transcript: done.transcript, keywordGroupIds: done.groupIds, tags: done.tags }, at);
    return;
  }
  const record = await getRecord(target.companyId, 'standalone_transcriptions', target.id);
  if (!record) return;
  const call = typeof record.call_id === 'number' ? await getCall(target.companyId, record.call_id) : undefined;
  const done = await outcome(target.companyId, result, call?.offer_id ?? null);
  await updateRecord(target.companyId, 'standalone_transcriptions', target.id, {
    status: done.status,
    transcript: done.transcript,
    transcription_keyword_group_ids: done.groupIds,
    tags: done.tags,
    failure_reason: done.reason,
    completed_at: at.toISOString(),
    updated_at: at.toISOString(),
  });
}

/** Starts a job; the local adapter's is finished already, so it is settled at once. */
async function startJob(target: Target, media: string, at: Date): Promise<void> {
  const port = transcriptionPort();
  const name = jobName(target);
  await port.start({ name, media });
  if (port.finishesAtOnce) await settleTranscription(name, at);
}

/** Transcribes a call's stored recording (recording-effects.ts); a failure to start is recorded on the call, not thrown at the carrier. */
export async function transcribeCallRecording(companyId: number, callId: number, recordingUrl: string, at: Date): Promise<void> {
  const target: Target = { kind: 'call', companyId, id: callId };
  await transcriptionChanged(companyId, callId, { status: 'in_progress' }, at);
  try {
    await startJob(target, recordingUrl, at);
  } catch (error) {
    logger.error('could not start the transcription of a call recording', { error, companyId, callId });
    await transcriptionChanged(companyId, callId, { status: 'failed' }, at);
  }
}

// Standalone transcriptions' resource behaviour (shared/call-config/transcriptions-resource.ts).

export async function prepareCreate(context: HookContext, fields: Record<string, unknown>): Promise<Record<string, unknown>> {
  const callId = fields.call_id ?? null;
  const url = fields.recording_url ?? null;
  if ((callId === null) === (url === null)) throw new ValidationError({ base: ['give either call_id (its recording) or recording_url'] });
  if (callId === null) return { ...fields, call_id: null, status: 'queued' };
  const call = await getCall(context.companyId, Number(callId));
  // Another company's call is refused like an unknown one.
  if (!call) throw new ValidationError({ call_id: ['does not exist'] });
  if (typeof call.recording_url !== 'string' || call.recording_url === '') throw new ValidationError({ call_id: ['has no recording'] });
  return { ...fields, recording_url: call.recording_url, status: 'queued' };
}

export async function afterWrite(context: HookContext, change: { before?: Record<string, unknown>; after: Record<string, unknown> }): Promise<Record<string, unknown> | void> {
  if (change.before) return;
  const target: Target = { kind: 'standalone', companyId: context.companyId, id: Number(change.after.id) };
  await updateRecord(target.companyId, 'standalone_transcriptions', target.id, { status: 'in_progress' });
  try {
    await startJob(target, String(change.after.recording_url), context.now);
  } catch (error) {
    logger.error('could not start a standalone transcription', { error, companyId: target.companyId, id: target.id });
    await updateRecord(target.companyId, 'standalone_transcriptions', target.id, { status: 'failed', failure_reason: 'the transcription could not be started' });
  }
  const stored = await getRecord(target.companyId, 'standalone_transcriptions', target.id);
  return stored ? { status: stored.status, transcript: stored.transcript, transcription_keyword_group_ids: stored.transcription_keyword_group_ids, tags: stored.tags, failure_reason: stored.failure_reason, completed_at: stored.completed_at, updated_at: stored.updated_at } : undefined;
}
