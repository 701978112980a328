import { randomBytes } from 'node:crypto';
import * as v from 'valibot';
import { blankable, integerParam, oneOf, presentString } from '../http/param-schemas.js';
import { AUDIO_CONTENT_TYPES, decodeAudio } from './sound-audio.js';
import { defineResource } from '../resources/define.js';
import { idListParam, optionalText } from '../resources/field-schemas.js';
import * as routing from '../resources/routing/configuration.js';
import { soundFilesView, soundPlaylistsView } from './sound-files-view.js';

/**
 * Sound files and playlists (docs/call-configuration.md, "Sounds, answering machines and number
 * orders"). A sound file's audio arrives once, as base64 in the create body (`audio_base64`, an
 * instruction: never stored in the record), is checked by its magic bytes and stored through the
 * object storage port; the record keeps its metadata and storage key. The carrier fetches it by
 * a URL from shared/call-config/sounds.ts. Deleting the record deletes the audio.
 */
const audioParam = v.pipe(
  v.string('is not a string'),
  v.rawCheck(({ dataset, addIssue }) => {
    if (!dataset.typed) return;
    const decoded = decodeAudio(dataset.value);
    if (!decoded.ok) addIssue({ message: decoded.message });
  }),
);

export const soundFiles = defineResource({
  ...routing.soundFiles,
  ...soundFilesView,
  root: 'sound_file',
  plural: 'sound_files',
  createSchema: v.object({
    name: presentString,
    description: optionalText,
    // Checked against the bytes: audio/mpeg for MP3, audio/wav or audio/x-wav for WAV; unset, the bytes decide.
    content_type: v.optional(blankable(oneOf(AUDIO_CONTENT_TYPES as unknown as [string, ...string[]]))),
    audio_base64: audioParam,
  }),
  updateSchema: v.object({
    name: v.optional(presentString),
    description: optionalText,
    audio_base64: v.optional(v.never('cannot be changed: upload a new sound file')),
    content_type: v.optional(v.never('cannot be changed: upload a new sound file')),
  }),
  instructions: ['audio_base64'],
  defaults: { name: null, description: null, content_type: null },
  order: { values: ['id', 'name', 'size_bytes', 'created_at', 'updated_at'], default: 'id' },
  fulltextFields: ['name', 'description'],
  // The carrier fetches the audio without credentials by this token (GET /api/v1/sound_files/audio/{token}):
  // its global lookup carries what serving needs, so one GetItem finds the object.
  unique: [{ field: 'playback_token', scope: 'global' }],
  generate: () => ({ playback_token: randomBytes(24).toString('base64url') }),
  lookupAttributes: (record) => ({ storage_key: record.storage_key ?? null, content_type: record.content_type ?? null }),
  behaviour: () => import('./sound-file-behaviour.js'),
});

/** How many times a playlist plays through (the carrier's `loop`; 0 is not allowed: endless hold music needs a Dial to end it). */
const loopParam = v.pipe(integerParam, v.minValue(1, 'must be greater than or equal to 1'), v.maxValue(20, 'must be less than or equal to 20'));
const soundIds = v.pipe(
  idListParam,
  v.check((ids) => (ids ?? []).length <= 50, 'has more than 50 sound files'),
  v.transform((ids) => ids ?? []),
);

export const soundPlaylists = defineResource({
  ...routing.soundPlaylists,
  ...soundPlaylistsView,
  root: 'sound_playlist',
  plural: 'sound_playlists',
  createSchema: v.object({ name: presentString, description: optionalText, sound_file_ids: soundIds, loop: v.optional(loopParam) }),
  updateSchema: v.object({ name: v.optional(presentString), description: optionalText, sound_file_ids: v.optional(soundIds), loop: v.optional(loopParam) }),
  defaults: { name: null, description: null, sound_file_ids: [], loop: 1 },
  order: { values: ['id', 'name', 'created_at', 'updated_at'], default: 'id' },
  fulltextFields: ['name', 'description'],
  check: (record): Record<string, string[]> => ((record.sound_file_ids as unknown[] | undefined)?.length ? {} : { sound_file_ids: ["can't be blank"] }),
});

