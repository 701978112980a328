import { createRouteGroupHandler } from '../../shared/http/handler.js';
import { groupOperations } from '../../shared/resources/engine.js';
import { callRouterAnswerGroups, callRouterAnswers, callRouters } from '../../shared/resources/call-routers.js';
import { callControlActions, keyPressFlowGroups, keyPressFlows } from '../../shared/resources/key-press-flows.js';

/** The call engine's configuration resources (docs/call-configuration.md). */
export const handler = createRouteGroupHandler(
  'configuration',
  groupOperations('configuration', [callRouters, callRouterAnswerGroups, callRouterAnswers, callControlActions, keyPressFlows, keyPressFlowGroups]),
);
