import { createRouteGroupHandler } from '../../shared/http/handler.js';
import { lazyOperation } from '../../shared/http/lazy-operation.js';
import { lazyGroupOperations } from '../../shared/resources/lazy-operations.js';
import { integrationsRoutings } from '../../shared/resources/routing/integrations.js';
import { integrationsRoutes } from '../../shared/http/routes/integrations.js';

/** Integrations, plus switching one on or off; their secrets, OAuth connections and app configs. */
export const handler = createRouteGroupHandler('integrations', integrationsRoutes, {
  ...lazyGroupOperations('integrations', integrationsRoutings, async () => {
    const { integrations } = await import('../../shared/integrations/integrations-resource.js');
    const { secretItems, oauthConnections, appConfigs } = await import('../../shared/secrets/secrets-resource.js');
    return [integrations, secretItems, oauthConnections, appConfigs];
  }),
  'integrations.setActive': lazyOperation(async () => (await import('./set-active.js')).setActive),
});
