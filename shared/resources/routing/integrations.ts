import { ALL_OPERATIONS } from '../define.js';
import { routing, type ResourceRouting } from './resource-routing.js';

/** The routing facts of the resources the integrations function serves (a function imports only its own group's). */
export const integrations = routing({ name: 'integrations', group: 'integrations', operations: ALL_OPERATIONS });
export const secretItems = routing({ name: 'secret_items', group: 'integrations', operations: ALL_OPERATIONS, csv: true });
export const oauthConnections = routing({ name: 'oauth_connections', group: 'integrations', operations: ALL_OPERATIONS, csv: true });
export const appConfigs = routing({ name: 'app_configs', group: 'integrations', operations: ALL_OPERATIONS, csv: true });

/** The integrations group's resources, in the route table's order. */
export const integrationsRoutings: readonly ResourceRouting[] = [integrations, secretItems, oauthConnections, appConfigs];
