/**
 * Which subscriptions and outgoing webhooks an event goes to. Pure: the delivery function's
 * fan-out reads the lists and filters them with these.
 */
import type { DomainEvent } from '../ports/events.js';
import { matchesTriggerFields } from './trigger-fields.js';

/** The subscriptions an event goes to: its name, enabled, trigger_fields matching. */
export function subscriptionMatches(subscription: Record<string, unknown>, event: DomainEvent): boolean {
  return subscription.event === event.name && subscription.enabled !== false && matchesTriggerFields(subscription.trigger_fields, event.data);
}

/** The outgoing webhooks an event fires: trigger_type, enabled, offer and minimum duration. */
export function outgoingWebhookMatches(webhook: Record<string, unknown>, event: DomainEvent): boolean {
  if (webhook.trigger_type !== event.name || webhook.enabled === false) return false;
  if (typeof webhook.offer_id === 'number' && webhook.offer_id !== event.data.offer_id) return false;
  if (typeof webhook.trigger_duration === 'number' && Number(event.data.answered_duration ?? 0) < webhook.trigger_duration) return false;
  return true;
}
