import { createRouteGroupHandler } from '../../shared/http/handler.js';
import { groupOperations } from '../../shared/resources/engine.js';
import { incomingTextMessages } from '../../shared/resources/incoming-text-messages.js';
import { callerBlock, callerUnblock, suppressionList } from './blacklist-operations.js';
import { hangUpContactCalls, showContact, updateContact } from './contacts.js';

/** Contacts (one caller number across the company's leads and calls) and the blacklist (suppression list). */
export const handler = createRouteGroupHandler('contacts', {
  ...groupOperations('contacts', [incomingTextMessages]),
  'contacts.callerBlock': callerBlock,
  'contacts.callerUnblock': callerUnblock,
  'contacts.suppressionList': suppressionList,
  'contacts.show': showContact,
  'contacts.update': updateContact,
  'contacts.hangUpCalls': hangUpContactCalls,
});
