/**
 * Which recordings a standalone transcription may name: the carrier's recording URLs and keys of
 * the object storage's `recordings/` folder, nothing else. The service never fetches them itself
 * (Amazon Transcribe reads its media from S3; the local adapter reads nothing), and this keeps the
 * field from naming arbitrary hosts for anything that ever does. Pure, unit-tested.
 */
const CARRIER_RECORDING = /^https:\/\/api\.twilio\.com\/2010-04-01\/Accounts\/AC[0-9a-fA-F]{32}\/Recordings\/RE[0-9a-fA-F]{32}(?:\.(?:mp3|wav))?(?:\?[\w.~%+=&-]{0,500})?$/;
const OBJECT_KEY = /^recordings(?:\/[A-Za-z0-9][A-Za-z0-9._-]{0,199}){1,8}$/;

export const MAX_RECORDING_REFERENCE_CHARS = 1024;

export function isAllowedRecording(value: string): boolean {
  if (value.length > MAX_RECORDING_REFERENCE_CHARS || value.includes('..')) return false;
  return CARRIER_RECORDING.test(value) || OBJECT_KEY.test(value);
}
