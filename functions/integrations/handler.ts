import { createRouteGroupHandler } from '../../shared/http/handler.js';
import { integrationsRoutes } from '../../shared/http/routes/integrations.js';
import { groupOperations } from '../../shared/resources/engine.js';
import { integrations } from '../../shared/resources/integrations.js';
import { appConfigs, oauthConnections, secretItems } from '../../shared/resources/secrets.js';
import { setActive } from './set-active.js';

/** Integrations, plus switching one on or off; their secrets, OAuth connections and app configs. */
export const handler = createRouteGroupHandler('integrations', integrationsRoutes, {
  ...groupOperations('integrations', [integrations, secretItems, oauthConnections, appConfigs]),
  'integrations.setActive': setActive,
});
