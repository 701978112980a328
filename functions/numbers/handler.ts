import { createRouteGroupHandler } from '../../shared/http/handler.js';
import { groupOperations } from '../../shared/resources/engine.js';
import { resourcesOfGroup } from '../../shared/resources/registry.js';
import { searchPhoneNumbers } from './search.js';

/** Tracking numbers (bought and released through the number provider) and number pools. */
export const handler = createRouteGroupHandler('numbers', {
  ...groupOperations(resourcesOfGroup('numbers')),
  'phone_numbers.search': searchPhoneNumbers,
});
