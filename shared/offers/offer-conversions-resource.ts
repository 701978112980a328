import * as v from 'valibot';
import { blankable, decimalParam, idParam, oneOf, presentString } from '../http/param-schemas.js';
import { defineResource } from '../resources/define.js';
import { tokenFilterListParam } from '../routing/token-fields.js';
import * as routing from '../resources/routing/offers.js';
import { offerConversionsView } from './offer-conversions-view.js';

/** Traffic source payouts: what the company pays a traffic source for a call on an offer. */
const PAYOUT_TYPES = ['usd', 'buyer_conversion_percent'] as const;

const writable = {
  payout_type: v.optional(oneOf(PAYOUT_TYPES)),
  payout: v.optional(blankable(decimalParam)),
  revenue_percentage: v.optional(blankable(decimalParam)),
  business_range_id: v.optional(blankable(idParam)),
  record_token_filter_list: v.optional(tokenFilterListParam),
  sortable_order: v.optional(decimalParam),
};

export const offerConversions = defineResource({
  ...routing.offerConversions,
  ...offerConversionsView,
  root: 'offer_conversion',
  plural: 'offer_conversions',
  createSchema: v.object({
    ...writable,
    duration: decimalParam,
    duplicate_timeframe: decimalParam,
    name: presentString,
    offer_id: idParam,
  }),
  updateSchema: v.object({
    ...writable,
    duration: v.optional(decimalParam),
    duplicate_timeframe: v.optional(decimalParam),
    name: v.optional(presentString),
    offer_id: v.optional(idParam),
  }),
  defaults: { payout_type: 'usd', payout: null, revenue_percentage: null, sortable_order: 0, record_token_filter_list: [] },
  defaultSort: { attribute: 'sortable_order', direction: 'asc' },
  filters: { offer_id: { schema: idParam }, business_range_id: { schema: idParam } },
  fulltextFields: ['name'],
  serializers: ['offer_conversion', 'offer_conversion_grid'],
});
