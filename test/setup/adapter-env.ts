/**
 * Registers the local adapters with the factories (shared/local/register-adapters.ts): they are
 * not imported by the factories, so no Lambda bundle carries them. Call it once DYNAMODB_ENDPOINT
 * and TABLE_NAME are set (the table queue and scheduler load the database client).
 */
export async function registerLocalAdapters(): Promise<void> {
  await import('../../shared/local/register-adapters.js');
}

/**
 * The settings every test run shares: local adapters (nothing leaves the machine), quiet logs,
 * and the voice carrier's test token. The run's own setup file sets the database first.
 */
export function setLocalTestEnvironment(): void {
  process.env.AWS_REGION = 'local';
  process.env.LOG_LEVEL ??= 'silent';
  process.env.EMAIL_ADAPTER = 'local';
  process.env.NUMBER_PROVIDER = 'local';
  process.env.EVENTS_ADAPTER = 'local';
  process.env.TELEPHONY_ADAPTER = 'local';
  process.env.SCHEDULER_ADAPTER = 'local';
  process.env.OBJECT_STORAGE_ADAPTER = 'local';
  process.env.TRANSCRIPTION_ADAPTER = 'local';
  process.env.DATA_PROVIDER = 'local';
  // A fixed test key (32 bytes): secret items and OAuth tokens are encrypted with AES-256-GCM.
  process.env.ENCRYPTION_ADAPTER = 'local';
  process.env.LOCAL_ENCRYPTION_KEY ??= Buffer.alloc(32, 7).toString('base64');
  process.env.TWILIO_AUTH_TOKEN ??= 'test-voice-auth-token';
}
