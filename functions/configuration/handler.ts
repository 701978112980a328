import { createRouteGroupHandler } from '../../shared/http/handler.js';
import { groupOperations } from '../../shared/resources/engine.js';

/** The call engine's configuration resources (docs/call-configuration.md). */
export const handler = createRouteGroupHandler('configuration', groupOperations('configuration', []));
