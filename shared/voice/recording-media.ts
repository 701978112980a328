/**
 * Which recordings a standalone transcription may name: the carrier's recording URLs and keys of
 * the object storage's `recordings/` folder, nothing else. The only fetch is of a carrier recording,
 * rebuilt from the account and recording ids this pattern takes out and sent to the carrier's own
 * API to copy it to S3 for Amazon Transcribe (shared/adapters/aws/carrier-recording-copy.ts), so
 * the field can never name an arbitrary host. Pure, unit-tested.
 */
const CARRIER_RECORDING = /^https:\/\/api\.twilio\.com\/2010-04-01\/Accounts\/(AC[0-9a-fA-F]{32})\/Recordings\/(RE[0-9a-fA-F]{32})(?:\.(?:mp3|wav))?(?:\?[\w.~%+=&-]{0,500})?$/;
const OBJECT_KEY = /^recordings(?:\/[A-Za-z0-9][A-Za-z0-9._-]{0,199}){1,8}$/;

export const MAX_RECORDING_REFERENCE_CHARS = 1024;

export function isAllowedRecording(value: string): boolean {
  if (value.length > MAX_RECORDING_REFERENCE_CHARS || value.includes('..')) return false;
  return CARRIER_RECORDING.test(value) || OBJECT_KEY.test(value);
}

/** The account and recording a carrier recording URL names; undefined for anything else. */
export function carrierRecording(value: string): { accountSid: string; recordingSid: string } | undefined {
  const match = value.length <= MAX_RECORDING_REFERENCE_CHARS ? CARRIER_RECORDING.exec(value) : null;
  return match ? { accountSid: match[1]!, recordingSid: match[2]! } : undefined;
}
