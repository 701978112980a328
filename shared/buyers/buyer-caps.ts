/**
 * The buyer's cap fields, apart from its other field names (buyer-field-names.ts) so the
 * authorisation every function runs (shared/auth/authorize.ts: a buyer team may change its caps)
 * bundles only these.
 */
export const CAP_FIELDS = [
  'concurrency_cap_limit',
  'attempt_total_limit',
  'attempt_monthly_limit',
  'attempt_daily_limit',
  'connection_total_limit',
  'connection_monthly_limit',
  'connection_daily_limit',
  'buyer_conversion_total_limit',
  'buyer_conversion_monthly_limit',
  'buyer_conversion_daily_limit',
  'revenue_total_limit',
  'revenue_monthly_limit',
  'revenue_daily_limit',
] as const;
