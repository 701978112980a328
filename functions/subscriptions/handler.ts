import { createRouteGroupHandler } from '../../shared/http/handler.js';
import { groupOperations } from '../../shared/resources/engine.js';
import { resourcesOfGroup } from '../../shared/resources/registry.js';
import { deleteByTargetUrl } from './delete-by-target-url.js';

/** Event subscriptions (the six operations plus delete by target_url) and manual webhook fires. */
export const handler = createRouteGroupHandler('subscriptions', {
  ...groupOperations(resourcesOfGroup('subscriptions')),
  'subscriptions.deleteByTargetUrl': deleteByTargetUrl,
});
