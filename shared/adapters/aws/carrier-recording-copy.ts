import { Readable } from 'node:stream';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import type { S3Client } from '@aws-sdk/client-s3';
import { carrierRecording } from '../../voice/recording-media.js';
import type { CarrierTokenSource } from '../carrier-secret.js';

/**
 * Amazon Transcribe reads media from S3 only, so a carrier recording (its URL on the carrier's
 * API, shared/voice/recording-media.ts) is copied into the transcripts bucket before its job
 * starts: `<recording>.mp3` streamed from the carrier with the account's Basic auth straight into
 * a PutObject of its Content-Length, never held in memory. Only the carrier's API is fetched: the
 * URL is rebuilt from the account and recording ids of a URL matching the carrier pattern, on the
 * configured base (TWILIO_API_BASE, default https://api.twilio.com), and a redirect is followed
 * only on that same origin. The copies expire with the bucket's lifecycle (infra/constructs/transcription.ts).
 */

/** The key prefix of the copies; the stack lets the starters write and read only this. */
export const RECORDING_COPY_PREFIX = 'recordings/';

/** The S3 key of a job's copy of its recording. */
export const recordingCopyKey = (jobName: string) => `${RECORDING_COPY_PREFIX}${jobName}.mp3`;

/** Largest recording copied: 100 MB, far above a long call's mp3 (an hour at 32 kbit/s is about 14 MB). */
export const MAX_RECORDING_COPY_BYTES = 100 * 1024 * 1024;

/** Whole copy, headers to last byte; under the starting functions' 10 s timeout, so a slow copy fails the job clearly rather than the function. */
export const RECORDING_COPY_TIMEOUT_MS = 8_000;

const MAX_REDIRECTS = 3;

export interface CarrierRecordingCopyConfig {
  /** The bucket the copies go to (the transcripts bucket), under RECORDING_COPY_PREFIX. */
  bucket: string;
  accountSid: string;
  /** The token, or where to read it before each copy (it may be rotated): carrier-secret.ts, as the Twilio adapters do. */
  authToken: string | CarrierTokenSource;
  /** The carrier API's origin (TWILIO_API_BASE); default https://api.twilio.com. */
  baseUrl?: string;
  maxBytes?: number;
  timeoutMs?: number;
}

export class RecordingCopyError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'RecordingCopyError';
  }
}

export class CarrierRecordingCopy {
  constructor(
    private readonly s3: S3Client,
    private readonly config: CarrierRecordingCopyConfig,
    private readonly fetchImpl: typeof fetch = fetch,
  ) {}

  /** Is this media a carrier recording (so it must be copied before Transcribe can read it)? */
  static handles(media: string): boolean {
    return carrierRecording(media) !== undefined;
  }

  /** Copies the recording to `recordings/<job name>.mp3` and returns that object's s3:// URI; throws RecordingCopyError when it refuses. */
  async copy(media: string, jobName: string): Promise<string> {
    const recording = carrierRecording(media);
    if (!recording) throw new RecordingCopyError('not a carrier recording URL: only the carrier’s recordings are copied');
    const origin = new URL(this.config.baseUrl || 'https://api.twilio.com').origin;
    const token = typeof this.config.authToken === 'string' ? this.config.authToken : await this.config.authToken();
    const authorization = `Basic ${Buffer.from(`${this.config.accountSid}:${token}`).toString('base64')}`;
    const signal = AbortSignal.timeout(this.config.timeoutMs ?? RECORDING_COPY_TIMEOUT_MS);
    let url = `${origin}/2010-04-01/Accounts/${recording.accountSid}/Recordings/${recording.recordingSid}.mp3`;
    let response = await this.fetchImpl(url, { headers: { authorization }, redirect: 'manual', signal });
    for (let hops = 0; response.status >= 300 && response.status < 400 && hops < MAX_REDIRECTS; hops++) {
      const location = response.headers.get('location');
      await response.body?.cancel();
      const next = location ? new URL(location, url) : undefined;
      // The credentials go to the carrier's API only: a redirect elsewhere is refused, not followed.
      if (!next || next.origin !== origin) throw new RecordingCopyError(`the carrier redirected the recording ${recording.recordingSid} off its API; not followed`);
      url = next.href;
      response = await this.fetchImpl(url, { headers: { authorization }, redirect: 'manual', signal });
    }
    if (response.status !== 200 || !response.body) {
      await response.body?.cancel();
      throw new RecordingCopyError(`the carrier answered HTTP ${response.status} for the recording ${recording.recordingSid}`);
    }
    const length = Number(response.headers.get('content-length') ?? NaN);
    const maxBytes = this.config.maxBytes ?? MAX_RECORDING_COPY_BYTES;
    if (!Number.isSafeInteger(length) || length <= 0 || length > maxBytes) {
      await response.body.cancel();
      throw new RecordingCopyError(
        Number.isSafeInteger(length) && length > 0
          ? `the recording ${recording.recordingSid} is ${length} bytes, above the ${maxBytes} bytes copied for transcription`
          : `the carrier sent the recording ${recording.recordingSid} without a usable Content-Length`,
      );
    }
    const key = recordingCopyKey(jobName);
    const { PutObjectCommand } = await import('@aws-sdk/client-s3');
    await this.s3.send(
      new PutObjectCommand({
        Bucket: this.config.bucket,
        Key: key,
        Body: Readable.fromWeb(response.body as WebReadableStream<Uint8Array>),
        ContentLength: length,
        ContentType: 'audio/mpeg',
      }),
      { abortSignal: signal },
    );
    return `s3://${this.config.bucket}/${key}`;
  }
}
