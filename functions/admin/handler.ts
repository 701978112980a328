import { createRouteGroupHandler } from '../../shared/http/handler.js';
import { groupOperations } from '../../shared/resources/engine.js';
import { unblockContactJobs, accessControlLists } from '../../shared/resources/admin.js';
import { showCollection } from './collections.js';

/** Teams, unblock contact jobs and the value collections. */
export const handler = createRouteGroupHandler('admin', {
  ...groupOperations('admin', [unblockContactJobs, accessControlLists]),
  'collections.show': showCollection,
});
