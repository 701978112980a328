import { createRouteGroupHandler } from '../../shared/http/handler.js';
import { groupOperations } from '../../shared/resources/engine.js';
import { integrations } from '../../shared/resources/integrations.js';
import { setActive } from './set-active.js';

/** Integrations, plus switching one on or off. */
export const handler = createRouteGroupHandler('integrations', {
  ...groupOperations('integrations', [integrations]),
  'integrations.setActive': setActive,
});
