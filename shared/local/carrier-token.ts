import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

const credentialsFile = () => join(resolve(process.env.DATA_DIR ?? '.data'), 'credentials.json');

/** TWILIO_AUTH_TOKEN, else the token `npm start` saved in DATA_DIR/credentials.json, else undefined. */
export function savedCarrierToken(): string | undefined {
  const credentials = credentialsFile();
  const saved = existsSync(credentials) ? (JSON.parse(readFileSync(credentials, 'utf8')) as { voice_auth_token?: string }) : {};
  return process.env.TWILIO_AUTH_TOKEN ?? saved.voice_auth_token;
}

/**
 * The carrier auth token the local carrier tools (`npm run call`, `npm run text`) sign with:
 * TWILIO_AUTH_TOKEN, else the one `npm start` saved in DATA_DIR/credentials.json. Exits with a
 * message when there is none.
 */
export function localCarrierToken(): string {
  const authToken = savedCarrierToken();
  if (!authToken) {
    console.error(`No carrier auth token: start the service with npm start first (it writes ${credentialsFile()}) or set TWILIO_AUTH_TOKEN.`);
    process.exit(2);
  }
  return authToken;
}
