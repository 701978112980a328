import { createRouteGroupHandler } from '../../shared/http/handler.js';
import { groupOperations } from '../../shared/resources/engine.js';
import { resourcesOfGroup } from '../../shared/resources/registry.js';
import { showCollection } from './collections.js';

/** Teams, unblock contact jobs and the value collections. */
export const handler = createRouteGroupHandler('admin', {
  ...groupOperations(resourcesOfGroup('admin')),
  'collections.show': showCollection,
});
