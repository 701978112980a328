import { serveAudio } from '../../shared/call-config/sounds.js';
import { createRouteGroupHandler } from '../../shared/http/handler.js';
import { configurationRoutes } from '../../shared/http/routes/configuration.js';
import { callRecordingRules } from '../../shared/resources/call-recording-rules.js';
import { groupOperations } from '../../shared/resources/engine.js';
import { sipHeaderParserGroups, sipHeaderParsers, sipHeaders } from '../../shared/resources/sip-headers.js';
import { stateCallLimits } from '../../shared/resources/state-call-limits.js';
import { tokenMatchers, visitorTokenMatchers } from '../../shared/resources/token-matchers.js';
import { callRouterAnswerGroups, callRouterAnswers, callRouters } from '../../shared/resources/call-routers.js';
import { callControlActions, keyPressFlowGroups, keyPressFlows } from '../../shared/resources/key-press-flows.js';
import { agentCallDispositions, callDispositions } from '../../shared/resources/call-dispositions.js';
import { standaloneTranscriptions, transcriptionKeywordGroups } from '../../shared/resources/transcriptions.js';
import { offerAmdFlows } from '../../shared/resources/offer-amd-flows.js';
import { soundFiles, soundPlaylists } from '../../shared/resources/sound-files.js';
import { visitorNumber } from './visitor-number.js';

/** The call engine's configuration resources (docs/call-configuration.md). */
export const handler = createRouteGroupHandler('configuration', configurationRoutes, {
  ...groupOperations('configuration', [
    sipHeaders,
    sipHeaderParserGroups,
    sipHeaderParsers,
    callRecordingRules,
    stateCallLimits,
    tokenMatchers,
    visitorTokenMatchers,
    callRouters,
    callRouterAnswerGroups,
    callRouterAnswers,
    callControlActions,
    keyPressFlows,
    keyPressFlowGroups,
    callDispositions,
    agentCallDispositions,
    transcriptionKeywordGroups,
    standaloneTranscriptions,
    soundFiles,
    soundPlaylists,
    offerAmdFlows,
  ]),
  'ring_pools.visitorNumber': visitorNumber,
  'sound_files.audio': serveAudio,
});
