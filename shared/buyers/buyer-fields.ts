import * as v from 'valibot';
import { scheduleDaySchema } from './schedule-schema.js';
import { blankable, booleanParam, decimalParam, idParam, oneOf } from '../http/param-schemas.js';
import { emailParam, idListParam, listOf, optionalText, timeZoneParam } from '../resources/field-schemas.js';
import { tokenFilterListParam, tokenListParam } from '../routing/token-fields.js';
import { phoneOrSipParam } from '../resources/phone-or-sip-param.js';
import { BUYER_WRITABLE_FIELDS, CAP_FIELDS, type BuyerWritableField } from './buyer-field-names.js';
import { checkRtbBuyer, rtbWritable } from './rtb-fields.js';

export { BUYER_WRITABLE_FIELDS, CAP_FIELDS };

/** Writable buyer fields (the reference's Buyer table), each with its rule. */

const nonNegative = v.pipe(decimalParam, v.minValue(0, 'must be greater than or equal to 0'));
const optionalCap = v.optional(blankable(nonNegative));
const optionalDecimal = v.optional(blankable(decimalParam));


const businessHoursItem = v.object(
  {
    attempt_hourly_limit: optionalCap,
    connection_hourly_limit: optionalCap,
    buyer_conversion_hourly_limit: optionalCap,
    revenue_hourly_limit: optionalCap,
    schedule: v.array(scheduleDaySchema, 'is not a list of schedule days'),
  },
  'is not a business hours item',
);

const conversionAttributes = v.object(
  {
    name: v.pipe(v.string('is not a string'), v.trim(), v.nonEmpty("can't be blank")),
    duration: nonNegative,
    revenue: decimalParam,
    duplicate_timeframe: nonNegative,
  },
  'is not a conversion',
);

const conversionsItem = v.object(
  {
    buyer_conversions_attributes: v.array(conversionAttributes, 'is not a list of conversions'),
    schedule: v.array(scheduleDaySchema, 'is not a list of schedule days'),
  },
  'is not a conversions schedule item',
);

/** Dollars in whole cents: 12.34 passes, 12.345 does not. */
const cents = v.check<number, string>((value) => Math.abs(value * 100 - Math.round(value * 100)) < 1e-6, 'must be in steps of 0.01');

export const DISPLAY_CALLER_ID_TYPES = ['display_caller_id', 'display_fake_caller_id', 'display_service_number_id'] as const;
export const ROUTE_BY_TYPES = ['tier', 'revenue', 'epc'] as const;

/**
 * The fields a buyer may set on create and update (all optional), one rule per name of
 * BUYER_WRITABLE_FIELDS (the type refuses a missing or an extra one).
 */
export const buyerWritable: Record<BuyerWritableField, v.GenericSchema<unknown, unknown>> = {
  user_buyer_id: optionalText,
  number: v.optional(phoneOrSipParam),
  name: optionalText,
  // Blank means the default ring time.
  timeout_seconds: v.optional(
    v.pipe(
      blankable(v.pipe(decimalParam, v.minValue(12, 'must be at least 12 seconds'))),
      v.transform((value) => value ?? 120),
    ),
  ),
  dtmf_tones: v.optional(blankable(v.pipe(v.string('is not a string'), v.regex(/^[0-9*#wW]*$/, 'may contain only digits, *, #, w and W')))),
  time_zone: v.optional(timeZoneParam),
  buyer_suppression_ids: v.optional(idListParam),
  paused: v.optional(booleanParam),
  record_calls: v.optional(booleanParam),
  press_one_to_accept: v.optional(blankable(booleanParam)),
  generate_team: v.optional(booleanParam),
  // Each address once (compared lower-cased, as stored): an invitee listed twice is invited once.
  team_users_emails: v.optional(
    blankable(v.pipe(listOf(emailParam, 'is not a list of e-mail addresses'), v.transform((emails) => [...new Set(emails)]))),
  ),
  team_offer_ids: v.optional(idListParam),
  team_edit_caps: v.optional(booleanParam),
  record_token_filter_list: v.optional(tokenFilterListParam),
  record_token_additional_list: v.optional(tokenListParam),
  route_by_type: v.optional(oneOf(ROUTE_BY_TYPES)),
  tier: optionalDecimal,
  weight: v.optional(blankable(nonNegative)),
  epc_timeframe: optionalCap,
  epc_assumed_amount: optionalDecimal,
  epc_assumed_calls_count: optionalCap,
  display_caller_id_type: v.optional(oneOf(DISPLAY_CALLER_ID_TYPES)),
  display_service_number_id: v.optional(blankable(idParam)),
  ...(Object.fromEntries(CAP_FIELDS.map((field) => [field, optionalCap])) as Record<(typeof CAP_FIELDS)[number], typeof optionalCap>),
  business_hours_schedule: v.optional(blankable(v.array(businessHoursItem, 'is not a list of business hours items'))),
  buyer_conversions_schedule: v.optional(blankable(v.array(conversionsItem, 'is not a list of conversions schedule items'))),
  current_conversion_revenue_max: optionalDecimal,
  current_conversion_revenue_min: optionalDecimal,
  current_conversion_revenue_increment: optionalDecimal,
  current_conversion_revenue: v.optional(blankable(v.pipe(decimalParam, cents))),
  current_conversion_duration: v.optional(nonNegative),
  current_conversion_duplicate_timeframe: v.optional(nonNegative),
  current_conversion_name: optionalText,
  current_conversion_token_values: v.optional(tokenFilterListParam),
  current_conversion_attribution_token_values: v.optional(tokenListParam),
  ...rtbWritable,
};


/** Rules across fields, on the buyer as it will be after the write. */
export function checkBuyer(buyer: Record<string, unknown>): Record<string, string[]> {
  const errors: Record<string, string[]> = checkRtbBuyer(buyer);
  if (buyer.display_caller_id_type === 'display_service_number_id' && (buyer.display_service_number_id ?? null) === null) {
    errors.display_service_number_id = ["can't be blank when display_caller_id_type is display_service_number_id"];
  }
  const revenue = buyer.current_conversion_revenue;
  const min = buyer.current_conversion_revenue_min;
  const max = buyer.current_conversion_revenue_max;
  if (typeof min === 'number' && typeof max === 'number' && min > max) {
    errors.current_conversion_revenue_min = ['must be less than or equal to current_conversion_revenue_max'];
  }
  if (typeof revenue === 'number') {
    if (typeof min === 'number' && revenue < min) (errors.current_conversion_revenue ??= []).push(`must be at least ${min} (current_conversion_revenue_min)`);
    if (typeof max === 'number' && revenue > max) (errors.current_conversion_revenue ??= []).push(`must be at most ${max} (current_conversion_revenue_max)`);
  }
  return errors;
}
