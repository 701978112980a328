import { randomUUID } from 'node:crypto';
import type { Context } from 'aws-lambda';
import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_LOCAL_TRANSCRIPT, FixedTranscripts } from '../../shared/adapters/local/fixed-transcripts.js';
import { setTranscriptionPort } from '../../shared/adapters/transcription.js';
import type { TranscriptionResult } from '../../shared/ports/transcription.js';
import { recordingReady } from '../../shared/calls/call-flow.js';
import { getCall } from '../../shared/calls/call-store.js';
import { recordingStored } from '../../shared/call-config/recording-effects.js';
import { simulateCall } from '../../shared/local/call-simulator.js';
import { clock } from '../../shared/adapters/clock.js';
import { createTestCompany, type TestCompany } from '../fixtures/company.js';
import { expect404, expect405, expect422, recordOf } from '../fixtures/envelope.js';
import { useGateway } from '../fixtures/gateway.js';
import { asCompany } from '../fixtures/leads.js';
import { createThrough, listThrough } from '../fixtures/records.js';
import { VOICE_TOKEN } from '../fixtures/voice.js';

/**
 * Transcription keyword groups and standalone transcriptions (docs/call-configuration.md,
 * "Dispositions and transcription"), and a recorded call's transcript tagging the call. The local
 * transcription adapter's transcript is chosen by the recording URL's `transcript` parameter.
 */
const gateway = useGateway();

let callers = 0;
const newCaller = () => `+1415556${String(1000 + ++callers)}`;
const RECORDING_SID = () => `RE${randomUUID().replace(/-/g, '')}`;
const carrierRecording = (transcript?: string) =>
  `https://api.twilio.com/2010-04-01/Accounts/AC${'0'.repeat(32)}/Recordings/${RECORDING_SID()}.mp3${transcript === undefined ? '' : `?transcript=${encodeURIComponent(transcript)}`}`;

async function world(): Promise<{ company: TestCompany; offer: Record<string, any>; number: string }> {
  const company = await createTestCompany('transcriptions');
  const buyer = await createThrough(gateway, company, '/api/v1/buyers', { name: 'Desk', number: '+12125556001' });
  const offer = await createThrough(gateway, company, '/api/v1/offers', { name: 'Offer', buyer_ids: [buyer.id] });
  const number = await createThrough(gateway, company, '/api/v1/phone_numbers', { offer_id: offer.id });
  return { company, offer, number: number.number as string };
}

const as = (company: TestCompany, method: string, path: string, json?: unknown) => asCompany(gateway, company, method, path, json);

/** A completed simulated call whose recording the carrier's callback stored (as the recording route will). */
async function recordedCall(company: TestCompany, number: string, recordingUrl: string): Promise<number> {
  const placed = await simulateCall({ baseUrl: gateway.baseUrl, authToken: VOICE_TOKEN, from: newCaller(), to: number, buyers: [{ answer: true, answerAfter: 1, talk: 30 }] });
  expect(placed.outcome).toBe('completed');
  expect(await recordingReady(company.id, placed.callId!, recordingUrl, clock().now())).toBe(true);
  await recordingStored(company.id, placed.callId!, recordingUrl, clock().now());
  return placed.callId!;
}

describe('transcription_keyword_groups', () => {
  it('are created with bounded keyword lists, validated, updated and deleted', async () => {
    const { company, offer } = await world();
    const created = await createThrough(gateway, company, '/api/v1/transcription_keyword_groups', { name: 'Cancellations', keywords: 'Cancel, refund ,money back', tag_name: 'churn-risk', offer_id: offer.id });
    expect(created).toMatchObject({ type: 'TranscriptionKeywordGroup', keywords: ['cancel', 'refund', 'money back'], match_mode: 'any', tag_name: 'churn-risk', offer_id: offer.id });
    expect422(await as(company, 'POST', '/api/v1/transcription_keyword_groups', { name: 'x', keywords: [], match_mode: 'some' }), {
      keywords: ["can't be empty"],
      match_mode: ['is not included in the list (any, all)'],
    });
    const tooMany = Array.from({ length: 51 }, (_, index) => `word${index}`);
    expect422(await as(company, 'POST', '/api/v1/transcription_keyword_groups', { name: 'x', keywords: tooMany }), { keywords: ['must hold at most 50 words or phrases'] });
    expect422(await as(company, 'POST', '/api/v1/transcription_keyword_groups', { name: 'x', keywords: ['a'.repeat(101)] }), { 'keywords.0': ['must hold words or phrases of at most 100 characters'] });
    expect422(await as(company, 'POST', '/api/v1/transcription_keyword_groups', { name: 'x', keywords: ['ok'], offer_id: 999999 }), { offer_id: ['does not exist: 999999'] });
    const updated = recordOf(await as(company, 'PUT', `/api/v1/transcription_keyword_groups/${created.id}`, { match_mode: 'all', keywords: ['cancel'] }), 'transcription_keyword_group');
    expect(updated).toMatchObject({ match_mode: 'all', keywords: ['cancel'], name: 'Cancellations' });
    const other = await createTestCompany('transcriptions-other');
    expect404(await asCompany(gateway, other, 'GET', `/api/v1/transcription_keyword_groups/${created.id}`));
    expect((await as(company, 'DELETE', `/api/v1/transcription_keyword_groups/${created.id}`)).status).toBe(200);
    expect404(await as(company, 'GET', `/api/v1/transcription_keyword_groups/${created.id}`));
  });
});

describe("a recorded call's transcript", () => {
  it('is stored on the call and tags it with the keyword groups it matches, not with the others', async () => {
    const { company, offer, number } = await world();
    const churn = await createThrough(gateway, company, '/api/v1/transcription_keyword_groups', { name: 'Churn', keywords: ['cancel', 'money back'], tag_name: 'churn-risk' });
    const sale = await createThrough(gateway, company, '/api/v1/transcription_keyword_groups', { name: 'Sale', keywords: ['credit card', 'gold plan'], match_mode: 'all', offer_id: offer.id });
    // Its words are in the transcript only as parts of other words ("cancelled"): no match.
    await createThrough(gateway, company, '/api/v1/transcription_keyword_groups', { name: 'Exact', keywords: ['cancelled order'], tag_name: 'never' });
    const otherOffer = await createThrough(gateway, company, '/api/v1/offers', { name: 'Other' });
    await createThrough(gateway, company, '/api/v1/transcription_keyword_groups', { name: 'Elsewhere', keywords: ['cancel'], offer_id: otherOffer.id, tag_name: 'elsewhere' });

    const callId = await recordedCall(company, number, carrierRecording('I want to CANCEL my order, or get my Money-Back... it was cancelledorder'));
    const shown = (await as(company, 'GET', `/api/v1/calls/${callId}`)).body.call;
    expect(shown).toMatchObject({
      has_recording: true,
      transcription_status: 'completed',
      transcription: 'I want to CANCEL my order, or get my Money-Back... it was cancelledorder',
      transcription_keyword_group_ids: [churn.id],
      tags: ['churn-risk'],
    });

    // "all": both phrases must be there; one alone does not tag.
    const onlyOne = await recordedCall(company, number, carrierRecording('the gold plan please'));
    expect((await as(company, 'GET', `/api/v1/calls/${onlyOne}`)).body.call).toMatchObject({ transcription_status: 'completed', transcription_keyword_group_ids: [], tags: [] });
    const both = await recordedCall(company, number, carrierRecording('Gold plan, and here is my credit card.'));
    expect((await as(company, 'GET', `/api/v1/calls/${both}`)).body.call).toMatchObject({ transcription_keyword_group_ids: [sale.id], tags: ['Sale'] });

    // Without chosen words the local adapter's fixed transcript matches nothing here.
    const plain = await recordedCall(company, number, carrierRecording());
    expect((await as(company, 'GET', `/api/v1/calls/${plain}`)).body.call).toMatchObject({ transcription: DEFAULT_LOCAL_TRANSCRIPT, tags: [] });
  });
});

describe('standalone_transcriptions', () => {
  it("transcribe a recording URL or a call's recording, complete with the transcript, and have no update", async () => {
    const { company, number } = await world();
    const group = await createThrough(gateway, company, '/api/v1/transcription_keyword_groups', { name: 'Refunds', keywords: ['refund'] });
    const byUrl = await createThrough(gateway, company, '/api/v1/standalone_transcriptions', { recording_url: carrierRecording('Please refund me') });
    expect(byUrl).toMatchObject({ type: 'StandaloneTranscription', status: 'completed', transcript: 'Please refund me', transcription_keyword_group_ids: [group.id], tags: ['Refunds'], call_id: null, failure_reason: null });
    expect(recordOf(await as(company, 'GET', `/api/v1/standalone_transcriptions/${byUrl.id}`), 'standalone_transcription')).toMatchObject({ status: 'completed', transcript: 'Please refund me' });

    const byKey = await createThrough(gateway, company, '/api/v1/standalone_transcriptions', { recording_url: 'recordings/hello-there-refund.wav' });
    expect(byKey).toMatchObject({ status: 'completed', transcript: 'hello there refund', tags: ['Refunds'] });

    const callId = await recordedCall(company, number, carrierRecording('nothing to see'));
    const ofCall = await createThrough(gateway, company, '/api/v1/standalone_transcriptions', { call_id: callId });
    expect(ofCall).toMatchObject({ call_id: callId, status: 'completed', transcript: 'nothing to see', tags: [] });
    expect(ofCall.recording_url).toContain('/Recordings/RE');

    expect((await listThrough(gateway, company, '/api/v1/standalone_transcriptions?status=completed', 'standalone_transcriptions')).map((row) => row.id)).toEqual([byUrl.id, byKey.id, ofCall.id]);

    // Only the carrier's recordings and the object storage's recordings/ keys: no arbitrary fetch.
    for (const url of ['http://169.254.169.254/latest/meta-data', 'https://example.com/a.mp3', 'recordings/../secrets', 'file:///etc/passwd']) {
      expect422(await as(company, 'POST', '/api/v1/standalone_transcriptions', { recording_url: url }), { recording_url: ["is not one of the carrier's recording URLs or a recordings/ key of the object storage"] });
    }
    expect422(await as(company, 'POST', '/api/v1/standalone_transcriptions', {}), { base: ['give either call_id (its recording) or recording_url'] });
    expect422(await as(company, 'POST', '/api/v1/standalone_transcriptions', { call_id: callId, recording_url: 'recordings/a.wav' }), { base: ['give either call_id (its recording) or recording_url'] });
    const unrecorded = await simulateCall({ baseUrl: gateway.baseUrl, authToken: VOICE_TOKEN, from: newCaller(), to: number, buyers: [{ answer: true, answerAfter: 1, talk: 5 }] });
    expect422(await as(company, 'POST', '/api/v1/standalone_transcriptions', { call_id: unrecorded.callId }), { call_id: ['has no recording'] });
    const other = await world();
    const theirCall = await recordedCall(other.company, other.number, carrierRecording('theirs'));
    expect422(await as(company, 'POST', '/api/v1/standalone_transcriptions', { call_id: theirCall }), { call_id: ['does not exist'] });
    expect404(await asCompany(gateway, other.company, 'GET', `/api/v1/standalone_transcriptions/${byKey.id}`));

    // No update: the path answers 405 naming what it serves.
    expect405(await as(company, 'PUT', `/api/v1/standalone_transcriptions/${byUrl.id}`, { recording_url: 'recordings/x.wav' }), 'GET, DELETE');
    expect405(await as(company, 'PATCH', `/api/v1/standalone_transcriptions/${byUrl.id}`, {}), 'GET, DELETE');
    expect((await as(company, 'DELETE', `/api/v1/standalone_transcriptions/${byUrl.id}`)).status).toBe(200);
    expect404(await as(company, 'GET', `/api/v1/standalone_transcriptions/${byUrl.id}`));
  });
});

/**
 * Amazon Transcribe's semantics with the local transcripts: a job is still running when start
 * returns, and finishes when the test says so (as Transcribe's state-change event would).
 */
class LaterTranscripts extends FixedTranscripts {
  override readonly finishesAtOnce = false;
  readonly finished = new Set<string>();
  override async result(name: string): Promise<TranscriptionResult> {
    return this.finished.has(name) ? super.result(name) : { status: 'in_progress' };
  }
}

describe('a transcription that finishes later (as in AWS)', () => {
  afterEach(() => setTranscriptionPort());
  const context = { functionName: 'transcription', awsRequestId: 'r' } as unknown as Context;
  const stateChange = (name: string) => ({ source: 'aws.transcribe', 'detail-type': 'Transcribe Job State Change', detail: { TranscriptionJobName: name, TranscriptionJobStatus: 'COMPLETED' } });

  it("stays in progress until the job's state-change event reaches the settle function, which stores and tags it", async () => {
    const later = new LaterTranscripts();
    setTranscriptionPort(later);
    const { company, number } = await world();
    const group = await createThrough(gateway, company, '/api/v1/transcription_keyword_groups', { name: 'Refunds', keywords: ['refund'] });
    const callId = await recordedCall(company, number, carrierRecording('a refund please'));
    expect((await as(company, 'GET', `/api/v1/calls/${callId}`)).body.call).toMatchObject({ transcription_status: 'in_progress', transcription: null, tags: null });
    const standalone = await createThrough(gateway, company, '/api/v1/standalone_transcriptions', { recording_url: carrierRecording('no match here') });
    expect(standalone).toMatchObject({ status: 'in_progress', transcript: null });

    const { handler } = await import('../../functions/transcription/handler.js');
    const [callJob, standaloneJob] = [...later.jobs.keys()];
    // An event of a job still running (or of another stack's job) changes nothing.
    await handler(stateChange(callJob!) as never, context);
    await handler(stateChange('another-stack-1-call-1') as never, context);
    expect((await as(company, 'GET', `/api/v1/calls/${callId}`)).body.call.transcription_status).toBe('in_progress');

    for (const name of [callJob!, standaloneJob!]) later.finished.add(name);
    for (let i = 0; i < 2; i++) {
      // Delivered twice (EventBridge is at least once): the same result.
      await handler(stateChange(callJob!) as never, context);
      await handler(stateChange(standaloneJob!) as never, context);
    }
    expect((await as(company, 'GET', `/api/v1/calls/${callId}`)).body.call).toMatchObject({
      transcription_status: 'completed',
      transcription: 'a refund please',
      transcription_keyword_group_ids: [group.id],
      tags: ['Refunds'],
      // The carrier and the transcription changed the call, not a user.
      user_updated_at: null,
    });
    // One entry per change: started, then finished (the repeated delivery saved nothing); no user update.
    const stored = await getCall(company.id, callId);
    const entries = (stored!.timeline as Array<{ type: string; status?: string }>).filter((entry) => ['transcription', 'updated'].includes(entry.type));
    expect(entries.map(({ type, status }) => ({ type, status }))).toEqual([
      { type: 'transcription', status: 'in_progress' },
      { type: 'transcription', status: 'completed' },
    ]);
    expect(recordOf(await as(company, 'GET', `/api/v1/standalone_transcriptions/${standalone.id}`), 'standalone_transcription')).toMatchObject({
      status: 'completed',
      transcript: 'no match here',
      tags: [],
    });
  });
});

describe('a transcription that cannot start', () => {
  afterEach(() => setTranscriptionPort());

  it('marks the call and the standalone transcription failed, and the request still succeeds', async () => {
    class Refusing extends FixedTranscripts {
      override async start(): Promise<void> {
        throw new Error('LimitExceededException');
      }
    }
    setTranscriptionPort(new Refusing());
    const { company, number } = await world();
    const callId = await recordedCall(company, number, carrierRecording('words'));
    expect((await as(company, 'GET', `/api/v1/calls/${callId}`)).body.call).toMatchObject({ transcription_status: 'failed', transcription: null, user_updated_at: null });
    const standalone = await createThrough(gateway, company, '/api/v1/standalone_transcriptions', { call_id: callId });
    expect(standalone).toMatchObject({ status: 'failed', failure_reason: 'the transcription could not be started', transcript: null });
  });
});
