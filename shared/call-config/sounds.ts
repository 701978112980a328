import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from '../db/client.js';
import { keys } from '../db/keys.js';
import { getRecord, getRecords } from '../db/records.js';
import { NotFoundError } from '../http/errors.js';
import type { Operation } from '../http/request.js';
import { logger } from '../logger.js';

/**
 * Audio for the carrier to play (router prompts, whispers, hold queues): a sound file or a
 * playlist of them (shared/call-config/sound-files-resource.ts). The carrier fetches each URL itself:
 * in AWS a presigned S3 GetObject URL; with local object storage, the service's own
 * GET /api/v1/sound_files/audio/{playback_token}, authorised by the file's unguessable token.
 */
export interface SoundReference {
  sound_file_id?: number | null;
  sound_playlist_id?: number | null;
}

/** How long a presigned URL works: the carrier fetches (and caches) it while the call's TwiML is played. */
export const PLAYBACK_URL_SECONDS = 3600;
/** URLs one reference plays at most (a playlist's files times its loop). */
export const MAX_PLAYBACK_URLS = 100;

/** Where the API is reached from outside (the carrier): the voice webhooks' base without its path. */
export function publicApiBase(env: NodeJS.ProcessEnv = process.env): string {
  const voice = (env.VOICE_WEBHOOK_BASE || `http://127.0.0.1:${env.PORT || 3000}/api/v1/voice/twilio`).replace(/\/$/, '');
  return voice.replace(/\/api\/v1\/voice\/twilio$/, '');
}

/** The service's own URL of a sound file's audio (what local object storage plays). */
export function servedAudioUrl(playbackToken: string, env: NodeJS.ProcessEnv = process.env): string {
  return `${publicApiBase(env)}/api/v1/sound_files/audio/${encodeURIComponent(playbackToken)}`;
}

/**
 * The object storage adapter, loaded on first use: the voice function imports this module, and
 * only calls that play a sound should pay for loading the S3 client.
 */
async function storage() {
  return (await import('../adapters/object-storage.js')).objectStorage();
}

async function urlOf(file: Record<string, unknown>): Promise<string | undefined> {
  if (typeof file.storage_key !== 'string' || typeof file.playback_token !== 'string') return undefined;
  return (await (await storage()).presignedGetUrl(file.storage_key, PLAYBACK_URL_SECONDS)) ?? servedAudioUrl(file.playback_token);
}

/**
 * URLs the carrier can fetch and play, in order; [] when the reference names nothing playable
 * (callers then fall back to spoken text). A playlist plays its files in order, `loop` times; a
 * file deleted since is skipped. Reads: the playlist (GetItem) and its files (one BatchGetItem),
 * or the one file.
 */
export async function playbackUrls(companyId: number, ref: SoundReference, _at: Date): Promise<string[]> {
  let files: Record<string, unknown>[] = [];
  let loop = 1;
  if (typeof ref.sound_playlist_id === 'number') {
    const playlist = await getRecord(companyId, 'sound_playlists', ref.sound_playlist_id);
    const ids = Array.isArray(playlist?.sound_file_ids) ? (playlist.sound_file_ids as number[]) : [];
    files = ids.length ? await getRecords(companyId, 'sound_files', ids) : [];
    loop = Math.max(1, Number(playlist?.loop ?? 1));
  } else if (typeof ref.sound_file_id === 'number') {
    const file = await getRecord(companyId, 'sound_files', ref.sound_file_id);
    files = file ? [file] : [];
  }
  const once: string[] = [];
  for (const file of files) {
    const url = await urlOf(file);
    if (url) once.push(url);
  }
  const urls: string[] = [];
  for (let round = 0; round < loop && once.length; round++) urls.push(...once);
  return urls.slice(0, MAX_PLAYBACK_URLS);
}

const TOKEN = /^[A-Za-z0-9_-]{16,64}$/;

/**
 * GET /api/v1/sound_files/audio/{playback_token}: the audio, for the carrier (no credentials: the
 * token in the path is the file's own, unguessable, and names nothing else). One GetItem of the
 * token's global lookup, then the object. Unknown tokens and deleted files: 404.
 */
export const serveAudio: Operation = async (request) => {
  const token = request.pathParams.token ?? '';
  if (!TOKEN.test(token)) throw new NotFoundError();
  const found = await db.send(new GetCommand({ TableName: tableName, Key: keys.globalLookup('sound_files', 'playback_token', token) }));
  const key = found.Item?.storage_key;
  if (typeof key !== 'string') throw new NotFoundError();
  const bytes = await (await storage()).get(key);
  if (!bytes) {
    logger.warn('a sound file’s audio is missing from object storage', { key });
    throw new NotFoundError();
  }
  return {
    kind: 'raw',
    response: {
      statusCode: 200,
      headers: {
        'content-type': typeof found.Item?.content_type === 'string' ? found.Item.content_type : 'application/octet-stream',
        // The audio of a token never changes (a new upload is a new file and token).
        'cache-control': 'private, max-age=3600',
        'x-content-type-options': 'nosniff',
      },
      body: Buffer.from(bytes).toString('base64'),
      isBase64Encoded: true,
    },
  };
};
