import { transcribeCallRecording } from './transcription-jobs.js';

/**
 * What follows a call's recording once the carrier's recording callback stored `recording_url`
 * and `has_recording` on the call: its transcription, whose transcript then tags the call with
 * the keyword groups it matches (shared/call-config/transcription-jobs.ts). Called by the voice route.
 */
export async function recordingStored(companyId: number, callId: number, recordingUrl: string, at: Date): Promise<void> {
  await transcribeCallRecording(companyId, callId, recordingUrl, at);
}
