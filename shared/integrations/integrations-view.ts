import { defineView } from '../resources/define.js';
import * as routing from '../resources/routing/integrations.js';

/** How the resources of integrations-resource.ts are shown (their views); their write side stays there. Imports no schema. */

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

/** An integration type as its name shows it (`crm_one` -> `Crm one`). */
export const humanize = (type: string) => type.replace(/_/g, ' ').replace(/^\w/, (c) => c.toUpperCase());

export const integrationsView = defineView({
  name: routing.integrations.name,
  type: 'Integration',
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
  derive: (record) => {
    const type = record.integration_type as keyof typeof INTEGRATION_CATEGORIES | null;
    return { name: type ? humanize(type) : null, category: type ? INTEGRATION_CATEGORIES[type] : null };
  },
});
