import { randomUUID } from 'node:crypto';
import { objectStorage } from '../adapters/object-storage.js';
import { ValidationError } from '../http/errors.js';
import { logger } from '../logger.js';
import type { HookContext } from '../resources/define.js';
import { decodeAudio, defaultType, SOUND_KEY_PREFIX, typeMatches } from './sound-audio.js';

/** The sound_files resource's behaviour: the audio goes to object storage with the record, and goes with it. */

const EXTENSION = { wav: 'wav', mp3: 'mp3' } as const;

/**
 * Stores the audio once every check passed, just before the record is written; the engine
 * deletes it again if the write fails. The declared content type must agree with the bytes.
 */
export async function acquire(context: HookContext, draft: { record: Record<string, unknown>; fields: Record<string, unknown> }) {
  const decoded = decodeAudio(String(draft.fields.audio_base64 ?? ''));
  if (!decoded.ok) throw new ValidationError({ audio_base64: [decoded.message] });
  const declared = typeof draft.record.content_type === 'string' ? draft.record.content_type : undefined;
  if (declared && !typeMatches(decoded.format, declared)) throw new ValidationError({ content_type: [`does not match the audio (${decoded.format === 'wav' ? 'WAV' : 'MP3'})`] });
  const contentType = declared ?? defaultType(decoded.format);
  const key = `${SOUND_KEY_PREFIX}${context.companyId}/${randomUUID()}.${EXTENSION[decoded.format]}`;
  await objectStorage().put({ key, body: decoded.bytes, contentType });
  return {
    fields: { content_type: contentType, size_bytes: decoded.bytes.length, duration_seconds: decoded.seconds, storage_key: key },
    release: () => objectStorage().delete(key),
  };
}

/** The audio goes with its record; a failed delete is logged with the key to remove by hand. */
export async function afterDelete(context: HookContext, record: Record<string, unknown>): Promise<void> {
  if (typeof record.storage_key !== 'string') return;
  try {
    await objectStorage().delete(record.storage_key);
  } catch (error) {
    logger.error('deleting a sound file’s audio failed; delete the object by hand', { companyId: context.companyId, key: record.storage_key, error });
  }
}
