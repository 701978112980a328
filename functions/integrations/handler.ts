import { createRouteGroupHandler } from '../../shared/http/handler.js';
import { groupOperations } from '../../shared/resources/engine.js';
import { resourcesOfGroup } from '../../shared/resources/registry.js';
import { setActive } from './set-active.js';

/** Integrations, plus switching one on or off. */
export const handler = createRouteGroupHandler('integrations', {
  ...groupOperations(resourcesOfGroup('integrations')),
  'integrations.setActive': setActive,
});
