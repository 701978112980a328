import middy from '@middy/core';
import { clock } from '../../shared/adapters/clock.js';
import { settleTranscription } from '../../shared/call-config/transcription-jobs.js';
import { functionObservability } from '../../shared/observability/middleware.js';

/** The part of EventBridge's "Transcribe Job State Change" event this function reads. */
export interface TranscribeJobStateChange {
  detail?: { TranscriptionJobName?: unknown; TranscriptionJobStatus?: unknown };
}

/**
 * The end of an Amazon Transcribe job (infra/constructs/transcription.ts routes its state-change
 * event here): the job's result is read and stored on the call or standalone transcription it is
 * for, tagging it with the keyword groups it matches. Settling again stores the same values, so
 * EventBridge's at-least-once delivery and retries are harmless.
 */
export const handler = middy<TranscribeJobStateChange, void>()
  .use(functionObservability())
  .handler(async (event) => {
    const name = event.detail?.TranscriptionJobName;
    if (typeof name !== 'string' || name.length > 200) return;
    await settleTranscription(name, clock().now());
  });
