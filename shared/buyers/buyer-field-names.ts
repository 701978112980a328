/**
 * Names of the buyer's writable fields, apart from their rules (buyer-fields.ts) so the buyer's
 * view (its columns) and copy_another_buyer read them without loading any schema.
 */

import { CAP_FIELDS } from './buyer-caps.js';

export { CAP_FIELDS };

/** How a bidding buyer (`buyer_type` rtb) is asked for its bid per call (docs/rtb.md). */
export const RTB_FIELDS = ['buyer_type', 'rtb_url', 'rtb_method', 'rtb_body', 'rtb_headers', 'rtb_timeout_ms', 'rtb_min_bid', 'rtb_response_paths'] as const;

/** The writable fields, in the order the buyer's extra columns show them (what copy_another_buyer copies, less user_buyer_id). */
export const BUYER_WRITABLE_FIELDS = [
  'user_buyer_id',
  'number',
  'name',
  'timeout_seconds',
  'dtmf_tones',
  'time_zone',
  'buyer_suppression_ids',
  'paused',
  'record_calls',
  'press_one_to_accept',
  'generate_team',
  'team_users_emails',
  'team_offer_ids',
  // The buyer's team may change its caps too, not only pause it (docs/permissions.md).
  'team_edit_caps',
  'record_token_filter_list',
  'record_token_additional_list',
  'route_by_type',
  'tier',
  'weight',
  'epc_timeframe',
  'epc_assumed_amount',
  'epc_assumed_calls_count',
  'display_caller_id_type',
  'display_service_number_id',
  ...CAP_FIELDS,
  'business_hours_schedule',
  'buyer_conversions_schedule',
  'current_conversion_revenue_max',
  'current_conversion_revenue_min',
  'current_conversion_revenue_increment',
  'current_conversion_revenue',
  'current_conversion_duration',
  'current_conversion_duplicate_timeframe',
  'current_conversion_name',
  'current_conversion_token_values',
  'current_conversion_attribution_token_values',
  ...RTB_FIELDS,
] as const;

export type BuyerWritableField = (typeof BUYER_WRITABLE_FIELDS)[number];
