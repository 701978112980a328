import * as v from 'valibot';
import { oneOf } from '../http/param-schemas.js';
import { defineResource } from '../resources/define.js';
import * as routing from '../resources/routing/integrations.js';
import { humanize, INTEGRATION_CATEGORIES, integrationsView } from './integrations-view.js';

export { INTEGRATION_CATEGORIES };


export const INTEGRATION_TYPES = Object.keys(INTEGRATION_CATEGORIES) as [keyof typeof INTEGRATION_CATEGORIES, ...(keyof typeof INTEGRATION_CATEGORIES)[]];


/** An integration as another record's `associations` show it (a schedule action's `integrations`). */
export function integrationBrief(record: Record<string, unknown>): Record<string, unknown> {
  const type = typeof record.integration_type === 'string' ? record.integration_type : null;
  return { id: record.id, name: type ? humanize(type) : null, integration_type: type, active: record.active ?? false, connected_status: record.connected_status ?? null };
}

/**
 * Integrations with external systems. Connecting (OAuth and the like) is not served yet: a new
 * integration is `disconnected` and `active` is a plain flag set through
 * `PUT /api/v1/integrations/objects/:id`.
 */
export const integrations = defineResource({
  ...routing.integrations,
  ...integrationsView,
  root: 'integration',
  plural: 'integrations',
  createSchema: v.object({ integration_type: oneOf(INTEGRATION_TYPES) }),
  updateSchema: v.object({ integration_type: v.optional(oneOf(INTEGRATION_TYPES)) }),
  defaults: { integration_type: null, connected_status: 'disconnected', is_oauth2: false, active: false },
  order: { values: ['id', 'integration_type', 'created_at', 'updated_at'], default: 'id' },
  // `name` is shown, not stored ("Crm one" from crm_one): searched as shown.
  fulltextFields: ['integration_type', 'name'],
});
