import { createRouteGroupHandler } from '../../shared/http/handler.js';
import { agentCallDispositions, callDispositions } from '../../shared/resources/call-dispositions.js';
import { groupOperations } from '../../shared/resources/engine.js';
import { standaloneTranscriptions, transcriptionKeywordGroups } from '../../shared/resources/transcriptions.js';

/** The call engine's configuration resources (docs/call-configuration.md). */
export const handler = createRouteGroupHandler(
  'configuration',
  groupOperations('configuration', [callDispositions, agentCallDispositions, transcriptionKeywordGroups, standaloneTranscriptions]),
);
