import { createRouteGroupHandler } from '../../shared/http/handler.js';
import { groupOperations } from '../../shared/resources/engine.js';
import { unblockContactJobs, accessControlLists } from '../../shared/resources/admin.js';
import { adminTableExporters, dataExportRecords } from '../../shared/resources/admin-exports.js';
import { adminTasks, applicationClusters, bigintMigrations } from '../../shared/resources/admin-records.js';
import { showCollection } from './collections.js';

/** Teams, unblock contact jobs, the value collections, and company administration (exports, tasks, clusters, migrations). */
export const handler = createRouteGroupHandler('admin', {
  ...groupOperations('admin', [unblockContactJobs, accessControlLists, adminTableExporters, dataExportRecords, adminTasks, applicationClusters, bigintMigrations]),
  'collections.show': showCollection,
});
