import { defineView } from '../resources/define.js';
import * as routing from '../resources/routing/configuration.js';

/** How the resources of token-matchers-resource.ts are shown (their views); their write side stays there. Imports no schema. */

export const tokenMatchersView = defineView({
  name: routing.tokenMatchers.name,
  type: 'TokenMatcher',
  columns: ['company_id', 'name', 'enabled', 'match_field', 'match_token', 'match_type', 'match_value', 'set_tokens', 'offer_id'],
  foreignKeys: { offer_id: { resource: 'offers' } },
});

export const visitorTokenMatchersView = defineView({
  name: routing.visitorTokenMatchers.name,
  type: 'VisitorTokenMatcher',
  columns: ['company_id', 'name', 'enabled', 'param_name', 'match_type', 'match_value', 'set_tokens', 'ring_pool_id'],
  foreignKeys: { ring_pool_id: { resource: 'ring_pools' } },
});
