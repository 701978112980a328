import { ALL_OPERATIONS } from '../define.js';
import { routing, type ResourceRouting } from './resource-routing.js';

/** The routing facts of the resources the admin function serves (a function imports only its own group's). */
export const unblockContactJobs = routing({ name: 'unblock_contact_jobs', group: 'admin', operations: ['list', 'new', 'create', 'show', 'delete'] });
export const accessControlLists = routing({ name: 'access_control_lists', group: 'admin', operations: ALL_OPERATIONS });
export const adminTableExporters = routing({ name: 'admin_table_exporters', group: 'admin', operations: ALL_OPERATIONS, csv: true });
export const dataExportRecords = routing({ name: 'data_export_records', group: 'admin', operations: ['list', 'show'], csv: true });
export const adminTasks = routing({ name: 'admin_tasks', group: 'admin', operations: ALL_OPERATIONS, csv: true });
export const applicationClusters = routing({ name: 'application_clusters', group: 'admin', operations: ['list', 'new', 'create', 'show', 'update'], csv: true });
export const bigintMigrations = routing({ name: 'bigint_migrations', group: 'admin', operations: ALL_OPERATIONS, csv: true });
// Agents and call centers (shared/agents/agents-resource.ts); agent widgets are made with their agent, agent timestamps by the service.
export const callCenters = routing({ name: 'call_centers', group: 'admin', operations: ALL_OPERATIONS, csv: true });
export const agentStatuses = routing({ name: 'agent_statuses', group: 'admin', operations: ALL_OPERATIONS, csv: true });
export const voiceAgents = routing({ name: 'voice_agents', group: 'admin', operations: ALL_OPERATIONS, csv: true });
export const voiceAgentFields = routing({ name: 'voice_agent_fields', group: 'admin', operations: ALL_OPERATIONS, csv: true });
export const voiceAgentFlows = routing({ name: 'voice_agent_flows', group: 'admin', operations: ALL_OPERATIONS, csv: true });
export const voiceAgentKeywords = routing({ name: 'voice_agent_keywords', group: 'admin', operations: ALL_OPERATIONS, csv: true });
export const scheduleAgents = routing({ name: 'schedule_agents', group: 'admin', operations: ALL_OPERATIONS, csv: true });
export const agentMessages = routing({ name: 'agent_messages', group: 'admin', operations: ALL_OPERATIONS, csv: true });
export const agentWidgets = routing({ name: 'agent_widgets', group: 'admin', operations: ['show', 'update'] });
export const agentTimestamps = routing({ name: 'agent_timestamps', group: 'admin', operations: ['list', 'show'], csv: true });

/** The admin group's resources, in the route table's order. */
export const adminRoutings: readonly ResourceRouting[] = [unblockContactJobs, accessControlLists, adminTableExporters, dataExportRecords, adminTasks, applicationClusters, bigintMigrations, callCenters, agentStatuses, voiceAgents, voiceAgentFields, voiceAgentFlows, voiceAgentKeywords, scheduleAgents, agentMessages, agentWidgets, agentTimestamps];
