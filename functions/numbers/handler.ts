import { createRouteGroupHandler } from '../../shared/http/handler.js';
import { numbersRoutes } from '../../shared/http/routes/numbers.js';
import { groupOperations } from '../../shared/resources/engine.js';
import { resumeNumberOrder } from '../../shared/numbers/number-order-fill.js';
import { numberOrderPrefixes, numberOrders } from '../../shared/resources/number-orders.js';
import { phoneNumbers } from '../../shared/resources/phone-numbers.js';
import { ringPools } from '../../shared/resources/ring-pools.js';
import { searchPhoneNumbers } from './search.js';

/** Tracking numbers (bought and released through the number provider) and number pools. */
export const handler = createRouteGroupHandler('numbers', numbersRoutes, {
  ...groupOperations('numbers', [phoneNumbers, ringPools, numberOrderPrefixes, numberOrders]),
  'phone_numbers.search': searchPhoneNumbers,
  'number_orders.resume': resumeNumberOrder,
});
