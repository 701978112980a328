import { defineView } from '../resources/define.js';
import * as routing from '../resources/routing/configuration.js';

/** How the resources of transcriptions-resource.ts are shown (their views); their write side stays there. Imports no schema. */

export const transcriptionKeywordGroupsView = defineView({
  name: routing.transcriptionKeywordGroups.name,
  type: 'TranscriptionKeywordGroup',
  columns: ['company_id', 'name', 'keywords', 'match_mode', 'offer_id', 'tag_name'],
  foreignKeys: { offer_id: { resource: 'offers', association: 'offer' } },
});

export const standaloneTranscriptionsView = defineView({
  name: routing.standaloneTranscriptions.name,
  type: 'StandaloneTranscription',
  columns: ['company_id', 'call_id', 'recording_url', 'status', 'transcript', 'transcription_keyword_group_ids', 'tags', 'failure_reason', 'completed_at'],
});
