import { defineView } from '../resources/define.js';
import * as routing from '../resources/routing/integrations.js';

/** How the resources of secrets-resource.ts are shown (their views); their write side stays there. Imports no schema. */

export const secretItemsView = defineView({
  name: routing.secretItems.name,
  type: 'SecretItem',
  columns: ['company_id', 'name', 'description', 'value_last4', 'value_updated_at'],
});

export const oauthConnectionsView = defineView({
  name: routing.oauthConnections.name,
  type: 'OauthConnection',
  columns: ['company_id', 'integration_id', 'provider', 'name', 'account_identifier', 'scopes', 'status', 'expires_at', 'has_access_token', 'has_refresh_token', 'tokens_updated_at'],
  foreignKeys: { integration_id: { resource: 'integrations', association: 'integration' } },
});

export const appConfigsView = defineView({
  name: routing.appConfigs.name,
  type: 'AppConfig',
  columns: ['name', 'company_id', 'key', 'value', 'description', 'value_type'],
});
