import * as v from 'valibot';
import { blankable, idParam, oneOf, presentString } from '../http/param-schemas.js';
import { isAllowedRecording, MAX_RECORDING_REFERENCE_CHARS } from '../voice/recording-media.js';
import { defineResource } from '../resources/define.js';
import { listOf, optionalId } from '../resources/field-schemas.js';
import * as routing from '../resources/routing/configuration.js';
import { transcriptionKeywordGroupsView, standaloneTranscriptionsView } from './transcriptions-view.js';

/**
 * Transcription (docs/call-configuration.md, "Dispositions and transcription"):
 * - transcription_keyword_groups: words or phrases whose presence in a call's transcript tags the
 *   call (shared/call-config/keyword-matcher.ts).
 * - standalone_transcriptions: a transcription asked for by hand, of a call's recording or of a
 *   carrier recording URL; queued, then in progress, then completed (or failed). No update: a
 *   transcription is a result, not a setting (the reference lists the group without one).
 * The jobs themselves: shared/call-config/transcription-jobs.ts.
 */

export const MAX_KEYWORDS = 50;
export const MAX_KEYWORD_CHARS = 100;
export const MATCH_MODES = ['any', 'all'] as const;

const name = v.pipe(presentString, v.maxLength(100, 'is too long (maximum is 100 characters)'));
const keywords = v.pipe(
  listOf(v.pipe(v.string('is not a list of words'), v.trim(), v.nonEmpty('must not hold blank words'), v.maxLength(MAX_KEYWORD_CHARS, `must hold words or phrases of at most ${MAX_KEYWORD_CHARS} characters`)), 'is not a list of words'),
  v.transform((words) => [...new Set(words.map((word) => word.toLowerCase()))]),
  v.minLength(1, "can't be empty"),
  v.maxLength(MAX_KEYWORDS, `must hold at most ${MAX_KEYWORDS} words or phrases`),
);
const tagName = v.optional(blankable(v.pipe(v.string('is not a string'), v.trim(), v.regex(/^[\w .:-]{1,64}$/u, 'must be 1 to 64 letters, digits, spaces, dots, colons, hyphens or underscores'))));

export const transcriptionKeywordGroups = defineResource({
  ...routing.transcriptionKeywordGroups,
  ...transcriptionKeywordGroupsView,
  root: 'transcription_keyword_group',
  plural: 'transcription_keyword_groups',
  createSchema: v.object({ name, keywords, match_mode: v.optional(oneOf(MATCH_MODES)), offer_id: optionalId, tag_name: tagName }),
  updateSchema: v.object({ name: v.optional(name), keywords: v.optional(keywords), match_mode: v.optional(oneOf(MATCH_MODES)), offer_id: optionalId, tag_name: tagName }),
  defaults: { name: null, keywords: [], match_mode: 'any', offer_id: null, tag_name: null },
  filters: { offer_id: { schema: idParam } },
  order: { values: ['id', 'name', 'created_at', 'updated_at'], default: 'id' },
  fulltextFields: ['name', 'tag_name'],
});

export const TRANSCRIPTION_STATUSES = ['queued', 'in_progress', 'completed', 'failed'] as const;

const recordingUrl = v.optional(
  blankable(
    v.pipe(
      v.string('is not a string'),
      v.trim(),
      v.maxLength(MAX_RECORDING_REFERENCE_CHARS, `is too long (maximum is ${MAX_RECORDING_REFERENCE_CHARS} characters)`),
      v.check(isAllowedRecording, "is not one of the carrier's recording URLs or a recordings/ key of the object storage"),
    ),
  ),
);

export const standaloneTranscriptions = defineResource({
  ...routing.standaloneTranscriptions,
  ...standaloneTranscriptionsView,
  root: 'standalone_transcription',
  plural: 'standalone_transcriptions',
  createSchema: v.object({ call_id: optionalId, recording_url: recordingUrl }),
  updateSchema: v.object({}),
  defaults: { call_id: null, recording_url: null, status: 'queued', transcript: null, transcription_keyword_group_ids: [], tags: [], failure_reason: null, completed_at: null },
  filters: { call_id: { schema: idParam }, status: { schema: oneOf(TRANSCRIPTION_STATUSES) } },
  order: { values: ['id', 'created_at', 'updated_at'], default: 'id' },
  behaviour: () => import('./transcription-jobs.js'),
});
