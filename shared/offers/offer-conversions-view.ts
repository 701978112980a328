import { defineView } from '../resources/define.js';
import * as routing from '../resources/routing/offers.js';

/** How the resources of offer-conversions-resource.ts are shown (their views); their write side stays there. Imports no schema. */

export const offerConversionsView = defineView({
  name: routing.offerConversions.name,
  type: 'OfferConversion',
  columns: [
    'context_menu_name',
    'payout',
    'payout_type',
    'revenue_percentage',
    'duration',
    'duplicate_timeframe',
    'name',
    'token_values',
    'sortable_order',
    'offer_id',
    'business_range_id',
    'conversion_type',
    'record_token_filter_id',
    'record_token_filter_data_count',
    'record_token_filter_data',
  ],
  // business_range_id names a resource this service does not serve yet: checked as an id only.
  foreignKeys: { offer_id: { resource: 'offers', association: 'offer' } },
  derive: (record) => {
    const filters = Array.isArray(record.record_token_filter_list) ? (record.record_token_filter_list as string[]) : [];
    return {
      context_menu_name: record.name ?? null,
      token_values: filters.join(','),
      conversion_type: 'traffic_source_payout',
      record_token_filter_id: null,
      record_token_filter_data_count: filters.length,
      record_token_filter_data: filters,
    };
  },
});
