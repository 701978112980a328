import * as v from 'valibot';
import { oneOf } from '../http/param-schemas.js';
import { defineResource } from './define.js';
import * as routing from './routing.js';

/** The eleven kinds of external system (the reference's neutral names), with their category. */
export const INTEGRATION_CATEGORIES = {
  blacklist_provider: 'compliance',
  social_leadads: 'lead_sources',
  search_ads: 'lead_sources',
  marketing_automation: 'marketing',
  incident_alerting: 'notifications',
  crm_one: 'crm',
  team_chat: 'notifications',
  compliance_shield: 'compliance',
  forms: 'lead_sources',
  voip_provider: 'telephony',
  crm_two: 'crm',
} as const;

export const INTEGRATION_TYPES = Object.keys(INTEGRATION_CATEGORIES) as [keyof typeof INTEGRATION_CATEGORIES, ...(keyof typeof INTEGRATION_CATEGORIES)[]];

const humanize = (type: string) => type.replace(/_/g, ' ').replace(/^\w/, (c) => c.toUpperCase());

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
  root: 'integration',
  plural: 'integrations',
  type: 'Integration',
  createSchema: v.object({ integration_type: oneOf(INTEGRATION_TYPES) }),
  updateSchema: v.object({ integration_type: v.optional(oneOf(INTEGRATION_TYPES)) }),
  defaults: { integration_type: null, connected_status: 'disconnected', is_oauth2: false, active: false },
  columns: [
    'integration_type',
    'name',
    'public_key',
    'category',
    'connected_status',
    'connected_at',
    'disconnected_at',
    'is_oauth2',
    'zoho_update_login_token',
    'cache_expires_in',
    'active',
  ],
  order: { values: ['id', 'integration_type', 'created_at', 'updated_at'], default: 'id' },
  fulltextFields: ['integration_type'],
  derive: (record) => {
    const type = record.integration_type as keyof typeof INTEGRATION_CATEGORIES | null;
    return { name: type ? humanize(type) : null, category: type ? INTEGRATION_CATEGORIES[type] : null };
  },
});
