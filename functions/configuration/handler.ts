import { createRouteGroupHandler } from '../../shared/http/handler.js';
import { lazyOperation } from '../../shared/http/lazy-operation.js';
import { lazyGroupOperations } from '../../shared/resources/lazy-operations.js';
import { configurationRoutings } from '../../shared/resources/routing/configuration.js';
import { configurationRoutes } from '../../shared/http/routes/configuration.js';

/** The call engine's configuration resources (docs/call-configuration.md). */
export const handler = createRouteGroupHandler('configuration', configurationRoutes, {
  ...lazyGroupOperations('configuration', configurationRoutings, async () => {
    const { sipHeaders, sipHeaderParserGroups, sipHeaderParsers } = await import('../../shared/call-config/sip-headers-resource.js');
    const { callRecordingRules } = await import('../../shared/call-config/call-recording-rules-resource.js');
    const { stateCallLimits } = await import('../../shared/call-config/state-call-limits-resource.js');
    const { tokenMatchers, visitorTokenMatchers } = await import('../../shared/call-config/token-matchers-resource.js');
    const { callRouters, callRouterAnswerGroups, callRouterAnswers } = await import('../../shared/call-config/call-routers-resource.js');
    const { callControlActions, keyPressFlows, keyPressFlowGroups } = await import('../../shared/call-config/key-press-flows-resource.js');
    const { callDispositions, agentCallDispositions } = await import('../../shared/call-config/call-dispositions-resource.js');
    const { transcriptionKeywordGroups, standaloneTranscriptions } = await import('../../shared/call-config/transcriptions-resource.js');
    const { soundFiles, soundPlaylists } = await import('../../shared/call-config/sound-files-resource.js');
    const { offerAmdFlows } = await import('../../shared/call-config/offer-amd-flows-resource.js');
    return [sipHeaders, sipHeaderParserGroups, sipHeaderParsers, callRecordingRules, stateCallLimits, tokenMatchers, visitorTokenMatchers, callRouters, callRouterAnswerGroups, callRouterAnswers, callControlActions, keyPressFlows, keyPressFlowGroups, callDispositions, agentCallDispositions, transcriptionKeywordGroups, standaloneTranscriptions, soundFiles, soundPlaylists, offerAmdFlows];
  }),
  'ring_pools.visitorNumber': lazyOperation(async () => (await import('./visitor-number.js')).visitorNumber),
  'sound_files.audio': lazyOperation(async () => (await import('../../shared/call-config/sounds.js')).serveAudio),
});
