/**
 * Turns a recording into text. AWS: an Amazon Transcribe job whose transcript lands in the stack's
 * transcripts bucket, finishing later (a "Transcribe Job State Change" event brings the result
 * back, infra/constructs/transcription.ts). Local and tests: a fixed transcript, finished as soon
 * as it starts (shared/adapters/local/fixed-transcripts.ts). Same semantics: start a named job,
 * then ask for its result; starting a job of a name already started is not an error.
 */
export interface TranscriptionJob {
  /** Unique per job and stable for its target, so a repeated start is recognised (transcription-jobs.ts names them). */
  name: string;
  /** The recording: the carrier's recording URL, an s3:// URI, or a key of the object storage. */
  media: string;
}

export type TranscriptionResult =
  | { status: 'in_progress' }
  | { status: 'completed'; transcript: string }
  | { status: 'failed'; reason: string };

export interface TranscriptionPort {
  start(job: TranscriptionJob): Promise<void>;
  result(name: string): Promise<TranscriptionResult>;
  /** Jobs are finished when start returns (local): the caller reads the result at once. */
  readonly finishesAtOnce: boolean;
}
