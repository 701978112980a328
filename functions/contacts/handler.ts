import { createRouteGroupHandler } from '../../shared/http/handler.js';
import { callerBlock, callerUnblock, suppressionList } from './blacklist-operations.js';

/** The company blacklist (suppression list). */
export const handler = createRouteGroupHandler('contacts', {
  'contacts.callerBlock': callerBlock,
  'contacts.callerUnblock': callerUnblock,
  'contacts.suppressionList': suppressionList,
});
