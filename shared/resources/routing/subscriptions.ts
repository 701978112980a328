import { ALL_OPERATIONS } from '../define.js';
import { routing, type ResourceRouting } from './resource-routing.js';

/** The routing facts of the resources the subscriptions function serves (a function imports only its own group's). */
export const subscriptions = routing({ name: 'subscriptions', group: 'subscriptions', operations: ALL_OPERATIONS, newPath: '/api/v1/webhook_subscriptions/new' });
export const outgoingWebhookUrls = routing({ name: 'outgoing_webhook_urls', group: 'subscriptions', operations: ALL_OPERATIONS });
export const outgoingWebhooks = routing({ name: 'outgoing_webhooks', group: 'subscriptions', operations: ALL_OPERATIONS });
export const webhookManualFires = routing({ name: 'webhook_manual_fires', group: 'subscriptions', operations: ['list', 'new', 'create', 'show'] });

/** The subscriptions group's resources, in the route table's order. */
export const subscriptionsRoutings: readonly ResourceRouting[] = [subscriptions, outgoingWebhookUrls, outgoingWebhooks, webhookManualFires];
