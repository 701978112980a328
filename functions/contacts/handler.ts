import { createRouteGroupHandler } from '../../shared/http/handler.js';
import { groupOperations } from '../../shared/resources/engine.js';
import { incomingTextMessages } from '../../shared/resources/incoming-text-messages.js';
import { callerBlock, callerUnblock, suppressionList } from './blacklist-operations.js';
import { contactFields, contactFieldValues, contactFieldViews } from '../../shared/resources/contact-fields.js';
import { hangUpContactCalls, showContact, updateContact } from './contacts.js';

/** Contacts (one caller number across the company's leads and calls), the blacklist (suppression list) and custom contact fields. */
export const handler = createRouteGroupHandler('contacts', {
  ...groupOperations('contacts', [incomingTextMessages, contactFields, contactFieldValues, contactFieldViews]),
  'contacts.callerBlock': callerBlock,
  'contacts.callerUnblock': callerUnblock,
  'contacts.suppressionList': suppressionList,
  'contacts.show': showContact,
  'contacts.update': updateContact,
  'contacts.hangUpCalls': hangUpContactCalls,
});
