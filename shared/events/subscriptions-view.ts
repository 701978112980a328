import { defineView } from '../resources/define.js';
import * as routing from '../resources/routing/subscriptions.js';

/** How the resources of subscriptions-resource.ts are shown (their views); their write side stays there. Imports no schema. */

export const subscriptionsView = defineView({
  name: routing.subscriptions.name,
  type: 'Subscription',
  columns: ['target_url', 'event', 'trigger_fields', 'enabled', 'failing_since', 'disabled_at', 'disabled_reason'],
});
