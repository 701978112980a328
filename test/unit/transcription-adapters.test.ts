import { afterEach, describe, expect, it } from 'vitest';
import { mockClient } from 'aws-sdk-client-mock';
import { ConflictException, GetTranscriptionJobCommand, StartTranscriptionJobCommand, TranscribeClient } from '@aws-sdk/client-transcribe';
import { Readable } from 'node:stream';
import { GetObjectCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { AmazonTranscribe, mediaUri } from '../../shared/adapters/aws/amazon-transcribe.js';
import { CarrierRecordingCopy, MAX_RECORDING_COPY_BYTES } from '../../shared/adapters/aws/carrier-recording-copy.js';
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

describe('carrier recordings for Amazon Transcribe', () => {
  const ACCOUNT = `AC${'a'.repeat(32)}`;
  const RECORDING = `RE${'b'.repeat(32)}`;
  const recordingUrl = `https://api.twilio.com/2010-04-01/Accounts/${ACCOUNT}/Recordings/${RECORDING}`;
  const AUDIO = 'ID3-fake-mp3-bytes';
  const BASIC = `Basic ${Buffer.from(`${ACCOUNT}:secret-token`).toString('base64')}`;

  /** A carrier that answers every request with `answer` and notes what it was asked. */
  function carrier(answer: (url: string) => Response) {
    const requests: Array<{ url: string; authorization: string | null; redirect: string | undefined }> = [];
    const fetchStub = (async (input: string | URL | Request, init?: RequestInit) => {
      requests.push({ url: String(input), authorization: new Headers(init?.headers).get('authorization'), redirect: init?.redirect });
      return answer(String(input));
    }) as typeof fetch;
    return { requests, fetchStub };
  }
  const audio = (headers: Record<string, string> = { 'content-length': String(AUDIO.length) }, body: string = AUDIO, status = 200) => new Response(body, { status, headers });
  const copier = (fetchStub: typeof fetch, baseUrl?: string) =>
    new CarrierRecordingCopy(new S3Client({ region: 'us-east-1' }), { bucket: 'transcripts-bucket', accountSid: ACCOUNT, authToken: async () => 'secret-token', baseUrl }, fetchStub);
  const withCopy = (fetchStub: typeof fetch) =>
    new AmazonTranscribe(new TranscribeClient({ region: 'us-east-1' }), new S3Client({ region: 'us-east-1' }), CONFIG, copier(fetchStub));

  it("streams <recording>.mp3 from the carrier with the account's Basic auth into the bucket, then starts the job on the copy", async () => {
    const { requests, fetchStub } = carrier(() => audio());
    let stored = '';
    s3.on(PutObjectCommand).callsFake(async (input: { Body: Readable }) => {
      expect(input.Body).toBeInstanceOf(Readable);
      for await (const chunk of input.Body) stored += Buffer.from(chunk as Uint8Array).toString();
      return {};
    });
    transcribe.on(StartTranscriptionJobCommand).resolves({});
    await withCopy(fetchStub).start({ name: 'svc-1-call-42', media: recordingUrl });
    expect(requests).toEqual([{ url: `${recordingUrl}.mp3`, authorization: BASIC, redirect: 'manual' }]);
    const puts = s3.commandCalls(PutObjectCommand).map((call) => call.args[0].input);
    expect(puts).toEqual([expect.objectContaining({ Bucket: 'transcripts-bucket', Key: 'recordings/svc-1-call-42.mp3', ContentLength: AUDIO.length, ContentType: 'audio/mpeg' })]);
    expect(Object.keys(puts[0]!).sort()).toEqual(['Body', 'Bucket', 'ContentLength', 'ContentType', 'Key']);
    expect(stored).toBe(AUDIO);
    expect(transcribe.commandCalls(StartTranscriptionJobCommand).map((call) => call.args[0].input)).toEqual([
      {
        TranscriptionJobName: 'svc-1-call-42',
        LanguageCode: 'en-US',
        Media: { MediaFileUri: 's3://transcripts-bucket/recordings/svc-1-call-42.mp3' },
        OutputBucketName: 'transcripts-bucket',
        OutputKey: 'transcripts/svc-1-call-42.json',
      },
    ]);
  });

  it('asks the configured carrier base for the same recording (an extension or query on the stored URL is not sent), and a repeated start is harmless', async () => {
    const { requests, fetchStub } = carrier(() => audio());
    s3.on(PutObjectCommand).resolves({});
    transcribe.on(StartTranscriptionJobCommand).resolvesOnce({}).rejects(new ConflictException({ message: 'The requested job name already exists.', $metadata: {} }));
    const copy = copier(fetchStub, 'http://127.0.0.1:4010/');
    const adapter = new AmazonTranscribe(new TranscribeClient({ region: 'us-east-1' }), new S3Client({ region: 'us-east-1' }), CONFIG, copy);
    await adapter.start({ name: 'svc-1-call-7', media: `${recordingUrl}.wav?transcript=x` });
    await expect(adapter.start({ name: 'svc-1-call-7', media: `${recordingUrl}.wav?transcript=x` })).resolves.toBeUndefined();
    expect(requests.map((request) => request.url)).toEqual([`http://127.0.0.1:4010/2010-04-01/Accounts/${ACCOUNT}/Recordings/${RECORDING}.mp3`, `http://127.0.0.1:4010/2010-04-01/Accounts/${ACCOUNT}/Recordings/${RECORDING}.mp3`]);
    expect(s3.commandCalls(PutObjectCommand).map((call) => call.args[0].input.Key)).toEqual(['recordings/svc-1-call-7.mp3', 'recordings/svc-1-call-7.mp3']);
  });

  it('never fetches anything but a carrier recording URL: other media pass to Transcribe as they are', async () => {
    const { requests, fetchStub } = carrier(() => audio());
    transcribe.on(StartTranscriptionJobCommand).resolves({});
    for (const media of ['https://evil.example/2010-04-01/Accounts/' + ACCOUNT + '/Recordings/' + RECORDING, 'https://api.twilio.com.evil.example/x.mp3', 's3://media-bucket/r.wav']) {
      await withCopy(fetchStub).start({ name: 'svc-1-standalone-1', media });
    }
    await expect(copier(fetchStub).copy('https://evil.example/recording.mp3', 'svc-1-standalone-1')).rejects.toThrow(/not a carrier recording/);
    expect(requests).toEqual([]);
    expect(s3.commandCalls(PutObjectCommand)).toEqual([]);
  });

  it.each([
    ['no Content-Length', () => audio({}), /without a usable Content-Length/],
    ['a Content-Length above the bound', () => audio({ 'content-length': String(MAX_RECORDING_COPY_BYTES + 1) }), /above the 104857600 bytes/],
    ['an empty recording', () => audio({ 'content-length': '0' }, ''), /without a usable Content-Length/],
    ['a 404', () => audio({ 'content-length': '9' }, 'not found', 404), /HTTP 404/],
    ['a redirect off the carrier', () => new Response(null, { status: 302, headers: { location: 'https://elsewhere.example/r.mp3' } }), /redirected .* off its API/],
  ])('refuses %s: nothing is stored and no job starts', async (_case, answer, message) => {
    const { requests, fetchStub } = carrier(answer);
    transcribe.on(StartTranscriptionJobCommand).resolves({});
    await expect(withCopy(fetchStub).start({ name: 'svc-1-call-9', media: recordingUrl })).rejects.toThrow(message);
    expect(requests).toHaveLength(1);
    expect(s3.commandCalls(PutObjectCommand)).toEqual([]);
    expect(transcribe.commandCalls(StartTranscriptionJobCommand)).toEqual([]);
  });

  it("follows a redirect on the carrier's own API, with the same credentials", async () => {
    const media = `${recordingUrl}.mp3`;
    const { requests, fetchStub } = carrier((url) => (url === media ? new Response(null, { status: 302, headers: { location: '/media/RE1.mp3' } }) : audio()));
    s3.on(PutObjectCommand).resolves({});
    expect(await copier(fetchStub).copy(recordingUrl, 'svc-1-call-3')).toBe('s3://transcripts-bucket/recordings/svc-1-call-3.mp3');
    expect(requests).toEqual([
      { url: media, authorization: BASIC, redirect: 'manual' },
      { url: 'https://api.twilio.com/media/RE1.mp3', authorization: BASIC, redirect: 'manual' },
    ]);
  });

  it('fails a carrier recording clearly without the carrier settings', async () => {
    transcribe.on(StartTranscriptionJobCommand).resolves({});
    await expect(adapter().start({ name: 'svc-1-call-5', media: recordingUrl })).rejects.toThrow(/TWILIO_ACCOUNT_SID/);
    expect(transcribe.commandCalls(StartTranscriptionJobCommand)).toEqual([]);
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
