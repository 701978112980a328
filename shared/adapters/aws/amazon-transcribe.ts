import type { S3Client } from '@aws-sdk/client-s3';
import type { TranscribeClient } from '@aws-sdk/client-transcribe';
import type { TranscriptionJob, TranscriptionPort, TranscriptionResult } from '../../ports/transcription.js';
import { CarrierRecordingCopy } from './carrier-recording-copy.js';

export interface AmazonTranscribeConfig {
  /** The bucket Transcribe writes transcripts to (TRANSCRIPTS_BUCKET), under `transcripts/`. */
  outputBucket: string;
  /** The bucket object storage keys name (recordings the carrier stored there); s3:// URIs and URLs pass as they are. */
  mediaBucket?: string;
  languageCode: string;
}

export const TRANSCRIPT_PREFIX = 'transcripts/';

/** The S3 key of a job's transcript. */
export const transcriptKey = (name: string) => `${TRANSCRIPT_PREFIX}${name}.json`;

/** Transcribe reads media from S3: an object storage key becomes an s3:// URI of the media bucket. */
export function mediaUri(media: string, mediaBucket: string | undefined): string {
  if (/^(s3|https):\/\//.test(media)) return media;
  if (!mediaBucket) throw new Error(`recording ${media} is an object key, but no TRANSCRIPTION_MEDIA_BUCKET is set`);
  return `s3://${mediaBucket}/${media}`;
}

/**
 * Transcription through Amazon Transcribe: StartTranscriptionJob with the transcript written to
 * the output bucket under a key of the job's name; GetTranscriptionJob for its state, and the
 * transcript read from that key once it is COMPLETED. A carrier recording is first copied into
 * the output bucket (carrier-recording-copy.ts), since Transcribe reads only S3; a repeated start
 * copies it again to the same key and finds the job started. The SDK comes from the Lambda
 * runtime: commands are imported on first use, like the SES adapter's.
 */
export class AmazonTranscribe implements TranscriptionPort {
  readonly finishesAtOnce = false;

  constructor(
    private readonly transcribe: TranscribeClient,
    private readonly s3: S3Client,
    private readonly config: AmazonTranscribeConfig,
    /** Copies carrier recordings; unset (no carrier settings), a carrier recording fails to start with a message naming them. */
    private readonly recordings?: CarrierRecordingCopy,
  ) {}

  /** The s3:// URI Transcribe reads the job's media from. */
  private async mediaFileUri(job: TranscriptionJob): Promise<string> {
    if (!CarrierRecordingCopy.handles(job.media)) return mediaUri(job.media, this.config.mediaBucket);
    if (!this.recordings) throw new Error('a carrier recording is copied to S3 for Transcribe with TWILIO_ACCOUNT_SID and the carrier auth token (TWILIO_AUTH_TOKEN_SECRET), which are not set');
    return this.recordings.copy(job.media, job.name);
  }

  async start(job: TranscriptionJob): Promise<void> {
    const { StartTranscriptionJobCommand, ConflictException } = await import('@aws-sdk/client-transcribe');
    const media = await this.mediaFileUri(job);
    try {
      await this.transcribe.send(
        new StartTranscriptionJobCommand({
          TranscriptionJobName: job.name,
          LanguageCode: this.config.languageCode as never,
          Media: { MediaFileUri: media },
          OutputBucketName: this.config.outputBucket,
          OutputKey: transcriptKey(job.name),
        }),
      );
    } catch (error) {
      // The same job started before (a retried recording callback): it is running or done already.
      if (!(error instanceof ConflictException)) throw error;
    }
  }

  async result(name: string): Promise<TranscriptionResult> {
    const { GetTranscriptionJobCommand } = await import('@aws-sdk/client-transcribe');
    const { TranscriptionJob: job } = await this.transcribe.send(new GetTranscriptionJobCommand({ TranscriptionJobName: name }));
    if (job?.TranscriptionJobStatus === 'FAILED') return { status: 'failed', reason: job.FailureReason ?? 'failed' };
    if (job?.TranscriptionJobStatus !== 'COMPLETED') return { status: 'in_progress' };
    const { GetObjectCommand } = await import('@aws-sdk/client-s3');
    const object = await this.s3.send(new GetObjectCommand({ Bucket: this.config.outputBucket, Key: transcriptKey(name) }));
    const body = JSON.parse((await object.Body?.transformToString()) ?? '{}') as { results?: { transcripts?: Array<{ transcript?: string }> } };
    return { status: 'completed', transcript: (body.results?.transcripts ?? []).map((part) => part.transcript ?? '').join(' ').trim() };
  }
}
