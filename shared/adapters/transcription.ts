import { traced } from '../observability/tracer.js';
import type { TranscriptionPort } from '../ports/transcription.js';
import { AmazonTranscribe } from './aws/amazon-transcribe.js';
import { CarrierRecordingCopy } from './aws/carrier-recording-copy.js';
import { carrierTokenConfigured, carrierTokenSource } from './carrier-secret.js';
import { localAdapters } from './local-registry.js';

/**
 * TRANSCRIPTION_ADAPTER: `aws` (default; Amazon Transcribe, TRANSCRIPTS_BUCKET for its output,
 * optional TRANSCRIPTION_MEDIA_BUCKET for recordings given as object keys and
 * TRANSCRIPTION_LANGUAGE, default en-US; carrier recordings are copied into TRANSCRIPTS_BUCKET
 * first, with TWILIO_ACCOUNT_SID, the carrier auth token (carrier-secret.ts) and optional
 * TWILIO_API_BASE) or `local` (fixed transcripts, finished at once). In a
 * module of its own, and the clients made on first use, so no other function loads them.
 */
export function createTranscriptionPort(env: NodeJS.ProcessEnv = process.env): TranscriptionPort {
  const adapter = env.TRANSCRIPTION_ADAPTER || 'aws';
  if (adapter === 'local') return new (localAdapters('TRANSCRIPTION_ADAPTER').FixedTranscripts)();
  if (adapter === 'aws') {
    const outputBucket = env.TRANSCRIPTS_BUCKET;
    if (!outputBucket) throw new Error('TRANSCRIPTS_BUCKET must be set for the Amazon Transcribe adapter');
    const config = { outputBucket, mediaBucket: env.TRANSCRIPTION_MEDIA_BUCKET || undefined, languageCode: env.TRANSCRIPTION_LANGUAGE || 'en-US' };
    let made: Promise<AmazonTranscribe> | undefined;
    const port = () =>
      (made ??= Promise.all([import('@aws-sdk/client-transcribe'), import('@aws-sdk/client-s3')]).then(
        ([{ TranscribeClient }, { S3Client }]) => {
          const s3 = traced(new S3Client({}));
          const recordings =
            env.TWILIO_ACCOUNT_SID && carrierTokenConfigured(env)
              ? new CarrierRecordingCopy(s3, { bucket: outputBucket, accountSid: env.TWILIO_ACCOUNT_SID, authToken: carrierTokenSource(env), baseUrl: env.TWILIO_API_BASE })
              : undefined;
          return new AmazonTranscribe(traced(new TranscribeClient({})), s3, config, recordings);
        },
      ));
    return {
      finishesAtOnce: false,
      start: async (job) => (await port()).start(job),
      result: async (name) => (await port()).result(name),
    };
  }
  throw new Error(`Unknown TRANSCRIPTION_ADAPTER ${adapter}`);
}

let transcription: TranscriptionPort | undefined;

export function transcriptionPort(): TranscriptionPort {
  transcription ??= createTranscriptionPort();
  return transcription;
}

/** Replaces the transcription port (tests); no argument goes back to the configured one. */
export function setTranscriptionPort(replacement?: TranscriptionPort): void {
  transcription = replacement;
}
