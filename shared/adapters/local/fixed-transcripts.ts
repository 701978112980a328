import type { TranscriptionJob, TranscriptionPort, TranscriptionResult } from '../../ports/transcription.js';

/** What every local recording says unless its URL chooses the words. */
export const DEFAULT_LOCAL_TRANSCRIPT = 'Hello, thanks for calling. This is a simulated call recording.';

/**
 * The transcript of a local recording, deterministic: the `transcript` parameter of its URL when
 * it has one (`...RE1.mp3?transcript=please+cancel`), else the words of its file name when they are
 * hyphenated (`recordings/please-cancel-my-order.wav`), else DEFAULT_LOCAL_TRANSCRIPT. Tests and
 * the simulator choose a call's words this way.
 */
export function localTranscript(media: string): string {
  let path = media;
  try {
    const url = new URL(media);
    const chosen = url.searchParams.get('transcript');
    if (chosen !== null) return chosen;
    path = url.pathname;
  } catch {
    // An object storage key, not a URL.
  }
  const file = (path.split('/').pop() ?? '').replace(/\.[a-z0-9]+$/i, '');
  return file.includes('-') ? file.split(/[-_]+/).filter(Boolean).join(' ') : DEFAULT_LOCAL_TRANSCRIPT;
}

/** The local transcription adapter: a job is finished the moment it starts (jobs kept in memory). */
export class FixedTranscripts implements TranscriptionPort {
  readonly finishesAtOnce: boolean = true;
  readonly jobs = new Map<string, string>();

  async start(job: TranscriptionJob): Promise<void> {
    if (!this.jobs.has(job.name)) this.jobs.set(job.name, job.media);
  }

  async result(name: string): Promise<TranscriptionResult> {
    const media = this.jobs.get(name);
    return media === undefined ? { status: 'failed', reason: `no transcription job ${name}` } : { status: 'completed', transcript: localTranscript(media) };
  }
}
