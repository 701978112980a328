/**
 * What follows a call's recording once the carrier's recording callback stored `recording_url`
 * and `has_recording` on the call (transcription, keyword tagging). Called by the voice route.
 */
export async function recordingStored(_companyId: number, _callId: number, _recordingUrl: string, _at: Date): Promise<void> {
  // Filled in by the transcription work.
}
