import { createRouteGroupHandler } from '../../shared/http/handler.js';
import { lazyOperation } from '../../shared/http/lazy-operation.js';
import { lazyGroupOperations } from '../../shared/resources/lazy-operations.js';
import { numbersRoutings } from '../../shared/resources/routing/numbers.js';
import { numbersRoutes } from '../../shared/http/routes/numbers.js';

/** Tracking numbers (bought and released through the number provider) and number pools. */
export const handler = createRouteGroupHandler('numbers', numbersRoutes, {
  ...lazyGroupOperations('numbers', numbersRoutings, async () => {
    const { phoneNumbers } = await import('../../shared/numbers/phone-numbers-resource.js');
    const { ringPools } = await import('../../shared/numbers/ring-pools-resource.js');
    const { numberOrderPrefixes, numberOrders } = await import('../../shared/numbers/number-orders-resource.js');
    return [phoneNumbers, ringPools, numberOrderPrefixes, numberOrders];
  }),
  'phone_numbers.search': lazyOperation(async () => (await import('./search.js')).searchPhoneNumbers),
  'number_orders.resume': lazyOperation(async () => (await import('../../shared/numbers/number-order-resume.js')).resumeNumberOrder),
  'numbers.lookup': lazyOperation(async () => (await import('./number-lookup.js')).numberLookup),
  'numbers.lookupPreflight': lazyOperation(async () => (await import('./number-lookup.js')).numberLookupPreflight),
});
