import { createRouteGroupHandler } from '../../shared/http/handler.js';
import { adminRoutes } from '../../shared/http/routes/admin.js';
import { groupOperations } from '../../shared/resources/engine.js';
import { unblockContactJobs, accessControlLists } from '../../shared/resources/admin.js';
import { agentMessages, agentStatuses, agentTimestamps, agentWidgets, callCenters, scheduleAgents, voiceAgentFields, voiceAgentFlows, voiceAgentKeywords, voiceAgents } from '../../shared/resources/agents.js';
import { adminTableExporters, dataExportRecords } from '../../shared/resources/admin-exports.js';
import { adminTasks, applicationClusters, bigintMigrations } from '../../shared/resources/admin-records.js';
import { showCollection } from './collections.js';

/** Teams, unblock contact jobs, agents and call centers, the value collections, and company administration (exports, tasks, clusters, migrations). */
export const handler = createRouteGroupHandler('admin', adminRoutes, {
  ...groupOperations('admin', [
    unblockContactJobs,
    accessControlLists,
    callCenters,
    agentStatuses,
    voiceAgents,
    voiceAgentFields,
    voiceAgentFlows,
    voiceAgentKeywords,
    scheduleAgents,
    agentMessages,
    agentWidgets,
    agentTimestamps,
    adminTableExporters,
    dataExportRecords,
    adminTasks,
    applicationClusters,
    bigintMigrations,
  ]),
  'collections.show': showCollection,
});
