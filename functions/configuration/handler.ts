import { createRouteGroupHandler } from '../../shared/http/handler.js';
import { lazyOperation } from '../../shared/http/lazy-operation.js';
import { lazyGroupOperations } from '../../shared/resources/lazy-operations.js';
import { configurationRoutings } from '../../shared/resources/routing/configuration.js';
import { configurationRoutes } from '../../shared/http/routes/configuration.js';

/** The call engine's configuration resources (docs/call-configuration.md). */
export const handler = createRouteGroupHandler('configuration', configurationRoutes, {
  ...lazyGroupOperations('configuration', configurationRoutings, async () => {
    const { sipHeaders, sipHeaderParserGroups, sipHeaderParsers } = await import('../../shared/resources/sip-headers.js');
    const { callRecordingRules } = await import('../../shared/resources/call-recording-rules.js');
    const { stateCallLimits } = await import('../../shared/resources/state-call-limits.js');
    const { tokenMatchers, visitorTokenMatchers } = await import('../../shared/resources/token-matchers.js');
    const { callRouters, callRouterAnswerGroups, callRouterAnswers } = await import('../../shared/resources/call-routers.js');
    const { callControlActions, keyPressFlows, keyPressFlowGroups } = await import('../../shared/resources/key-press-flows.js');
    const { callDispositions, agentCallDispositions } = await import('../../shared/resources/call-dispositions.js');
    const { transcriptionKeywordGroups, standaloneTranscriptions } = await import('../../shared/resources/transcriptions.js');
    const { soundFiles, soundPlaylists } = await import('../../shared/resources/sound-files.js');
    const { offerAmdFlows } = await import('../../shared/resources/offer-amd-flows.js');
    return [sipHeaders, sipHeaderParserGroups, sipHeaderParsers, callRecordingRules, stateCallLimits, tokenMatchers, visitorTokenMatchers, callRouters, callRouterAnswerGroups, callRouterAnswers, callControlActions, keyPressFlows, keyPressFlowGroups, callDispositions, agentCallDispositions, transcriptionKeywordGroups, standaloneTranscriptions, soundFiles, soundPlaylists, offerAmdFlows];
  }),
  'ring_pools.visitorNumber': lazyOperation(async () => (await import('./visitor-number.js')).visitorNumber),
  'sound_files.audio': lazyOperation(async () => (await import('../../shared/call-config/sounds.js')).serveAudio),
});
