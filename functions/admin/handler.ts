import { createRouteGroupHandler } from '../../shared/http/handler.js';
import { lazyOperation } from '../../shared/http/lazy-operation.js';
import { lazyGroupOperations } from '../../shared/resources/lazy-operations.js';
import { adminRoutings } from '../../shared/resources/routing/admin.js';
import { adminRoutes } from '../../shared/http/routes/admin.js';

/** Teams, unblock contact jobs, agents and call centers, the value collections, and company administration (exports, tasks, clusters, migrations). */
export const handler = createRouteGroupHandler('admin', adminRoutes, {
  ...lazyGroupOperations('admin', adminRoutings, async () => {
    const { unblockContactJobs, accessControlLists } = await import('../../shared/admin/admin-resource.js');
    const { callCenters, agentStatuses, voiceAgents, voiceAgentFields, voiceAgentFlows, voiceAgentKeywords, scheduleAgents, agentMessages, agentWidgets, agentTimestamps } = await import('../../shared/agents/agents-resource.js');
    const { adminTableExporters, dataExportRecords } = await import('../../shared/admin/admin-exports-resource.js');
    const { adminTasks, applicationClusters, bigintMigrations } = await import('../../shared/admin/admin-records-resource.js');
    return [unblockContactJobs, accessControlLists, callCenters, agentStatuses, voiceAgents, voiceAgentFields, voiceAgentFlows, voiceAgentKeywords, scheduleAgents, agentMessages, agentWidgets, agentTimestamps, adminTableExporters, dataExportRecords, adminTasks, applicationClusters, bigintMigrations];
  }),
  'collections.show': lazyOperation(async () => (await import('./collections.js')).showCollection),
  'company.show': lazyOperation(async () => (await import('./company.js')).showCompany),
});
