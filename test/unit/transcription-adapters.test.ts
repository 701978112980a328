import { afterEach, describe, expect, it } from 'vitest';
import { mockClient } from 'aws-sdk-client-mock';
import { ConflictException, GetTranscriptionJobCommand, StartTranscriptionJobCommand, TranscribeClient } from '@aws-sdk/client-transcribe';
import { GetObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { AmazonTranscribe, mediaUri } from '../../shared/adapters/aws/amazon-transcribe.js';
import { DEFAULT_LOCAL_TRANSCRIPT, FixedTranscripts, localTranscript } from '../../shared/adapters/local/fixed-transcripts.js';
import { createTranscriptionPort } from '../../shared/adapters/transcription.js';
import { jobName, targetOfJob } from '../../shared/call-config/transcription-jobs.js';

const CONFIG = { outputBucket: 'transcripts-bucket', mediaBucket: 'media-bucket', languageCode: 'en-US' };
const transcribe = mockClient(TranscribeClient);
const s3 = mockClient(S3Client);
const adapter = () => new AmazonTranscribe(new TranscribeClient({ region: 'us-east-1' }), new S3Client({ region: 'us-east-1' }), CONFIG);

afterEach(() => {
  transcribe.reset();
  s3.reset();
});

describe('Amazon Transcribe adapter', () => {
  it('starts a job with the media URI and the transcript written to the output bucket under the job name', async () => {
    transcribe.on(StartTranscriptionJobCommand).resolves({});
    await adapter().start({ name: 'svc-1-call-42', media: 'recordings/call-42.wav' });
    const calls = transcribe.commandCalls(StartTranscriptionJobCommand);
    expect(calls).toHaveLength(1);
    expect(calls[0]!.args[0].input).toEqual({
      TranscriptionJobName: 'svc-1-call-42',
      LanguageCode: 'en-US',
      Media: { MediaFileUri: 's3://media-bucket/recordings/call-42.wav' },
      OutputBucketName: 'transcripts-bucket',
      OutputKey: 'transcripts/svc-1-call-42.json',
    });
  });

  it('takes a job started before as started (a retried callback), and passes other errors on', async () => {
    transcribe.on(StartTranscriptionJobCommand).rejects(new ConflictException({ message: 'The requested job name already exists.', $metadata: {} }));
    await expect(adapter().start({ name: 'svc-1-call-42', media: 's3://media-bucket/r.wav' })).resolves.toBeUndefined();
    transcribe.on(StartTranscriptionJobCommand).rejects(new Error('LimitExceededException'));
    await expect(adapter().start({ name: 'svc-1-call-43', media: 's3://media-bucket/r.wav' })).rejects.toThrow('LimitExceededException');
  });

  it("reads a job's state, and a completed job's transcript from the output bucket", async () => {
    transcribe.on(GetTranscriptionJobCommand, { TranscriptionJobName: 'running' }).resolves({ TranscriptionJob: { TranscriptionJobStatus: 'IN_PROGRESS' } });
    transcribe.on(GetTranscriptionJobCommand, { TranscriptionJobName: 'broken' }).resolves({ TranscriptionJob: { TranscriptionJobStatus: 'FAILED', FailureReason: 'Unsupported media' } });
    transcribe.on(GetTranscriptionJobCommand, { TranscriptionJobName: 'done' }).resolves({ TranscriptionJob: { TranscriptionJobStatus: 'COMPLETED' } });
    const body = JSON.stringify({ results: { transcripts: [{ transcript: 'I want a refund.' }] } });
    // The part of the SDK's stream the adapter reads.
    s3.on(GetObjectCommand).resolves({ Body: { transformToString: async () => body } as never });
    expect(await adapter().result('running')).toEqual({ status: 'in_progress' });
    expect(await adapter().result('broken')).toEqual({ status: 'failed', reason: 'Unsupported media' });
    expect(await adapter().result('done')).toEqual({ status: 'completed', transcript: 'I want a refund.' });
    expect(transcribe.commandCalls(GetTranscriptionJobCommand).map((call) => call.args[0].input)).toEqual([
      { TranscriptionJobName: 'running' },
      { TranscriptionJobName: 'broken' },
      { TranscriptionJobName: 'done' },
    ]);
    expect(s3.commandCalls(GetObjectCommand).map((call) => call.args[0].input)).toEqual([{ Bucket: 'transcripts-bucket', Key: 'transcripts/done.json' }]);
  });

  it('passes s3:// and https media as they are, and needs a media bucket for keys', () => {
    expect(mediaUri('s3://b/k.wav', undefined)).toBe('s3://b/k.wav');
    expect(mediaUri('https://b.s3.amazonaws.com/k.wav', undefined)).toBe('https://b.s3.amazonaws.com/k.wav');
    expect(() => mediaUri('recordings/k.wav', undefined)).toThrow(/TRANSCRIPTION_MEDIA_BUCKET/);
  });

  it('is what TRANSCRIPTION_ADAPTER=aws wires, and refuses to start without its bucket', () => {
    expect(() => createTranscriptionPort({ TRANSCRIPTION_ADAPTER: 'aws' })).toThrow(/TRANSCRIPTS_BUCKET/);
    expect(createTranscriptionPort({ TRANSCRIPTION_ADAPTER: 'aws', TRANSCRIPTS_BUCKET: 'b' }).finishesAtOnce).toBe(false);
    expect(createTranscriptionPort({ TRANSCRIPTION_ADAPTER: 'local' })).toBeInstanceOf(FixedTranscripts);
    expect(() => createTranscriptionPort({ TRANSCRIPTION_ADAPTER: 'other' })).toThrow(/Unknown TRANSCRIPTION_ADAPTER/);
  });
});

describe('local transcription adapter', () => {
  it('finishes a job as it starts, with a transcript its recording chooses', async () => {
    const local = new FixedTranscripts();
    expect(local.finishesAtOnce).toBe(true);
    expect(await local.result('never-started')).toEqual({ status: 'failed', reason: 'no transcription job never-started' });
    await local.start({ name: 'a', media: 'https://api.twilio.com/x/Recordings/RE1.mp3?transcript=please+cancel' });
    await local.start({ name: 'b', media: 'recordings/hello-gold-plan.wav' });
    await local.start({ name: 'c', media: 'https://api.twilio.com/x/Recordings/RE1.mp3' });
    // A second start of the same name keeps the first job.
    await local.start({ name: 'a', media: 'recordings/other-words.wav' });
    expect(await local.result('a')).toEqual({ status: 'completed', transcript: 'please cancel' });
    expect(await local.result('b')).toEqual({ status: 'completed', transcript: 'hello gold plan' });
    expect(await local.result('c')).toEqual({ status: 'completed', transcript: DEFAULT_LOCAL_TRANSCRIPT });
    expect(localTranscript('recordings/plain.wav')).toBe(DEFAULT_LOCAL_TRANSCRIPT);
  });
});

describe('transcription job names', () => {
  it('say what the job is for, and another stack’s or a foreign job names nothing', () => {
    const name = jobName({ kind: 'call', companyId: 12, id: 374037725479534 });
    expect(name).toMatch(/^[0-9A-Za-z._-]{1,200}$/);
    expect(targetOfJob(name)).toEqual({ kind: 'call', companyId: 12, id: 374037725479534 });
    expect(targetOfJob(jobName({ kind: 'standalone', companyId: 3, id: 9 }))).toEqual({ kind: 'standalone', companyId: 3, id: 9 });
    expect(targetOfJob('someone-elses-job')).toBeUndefined();
    expect(targetOfJob(`${name}-x`)).toBeUndefined();
  });
});
