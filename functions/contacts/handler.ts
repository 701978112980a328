import { createRouteGroupHandler } from '../../shared/http/handler.js';
import { contactsRoutes } from '../../shared/http/routes/contacts.js';
import { groupOperations } from '../../shared/resources/engine.js';
import { incomingTextMessages } from '../../shared/resources/incoming-text-messages.js';
import { callerBlock, callerUnblock, suppressionList } from './blacklist-operations.js';
import { contactFields, contactFieldValues, contactFieldViews } from '../../shared/resources/contact-fields.js';
import { hangUpContactCalls, showContact, updateContact } from './contacts.js';
import { requestDataAppend } from './data-append.js';
import { dataAppendGroups, dataAppends } from '../../shared/resources/data-appends.js';
import { contactImports } from '../../shared/resources/contact-imports.js';
import { resumeContactImport } from '../../shared/contact-imports/import-requests.js';
import { receiveUpload } from '../../shared/contact-imports/upload.js';

/** Contacts (one caller number across the company's leads and calls), the blacklist (suppression list) custom contact fields, data appends and contact imports. */
export const handler = createRouteGroupHandler('contacts', contactsRoutes, {
  ...groupOperations('contacts', [incomingTextMessages, contactFields, contactFieldValues, contactFieldViews, dataAppendGroups, dataAppends, contactImports]),
  'contact_imports.resume': resumeContactImport,
  'contact_imports.upload': receiveUpload,
  'data_append.request': requestDataAppend,
  'contacts.callerBlock': callerBlock,
  'contacts.callerUnblock': callerUnblock,
  'contacts.suppressionList': suppressionList,
  'contacts.show': showContact,
  'contacts.update': updateContact,
  'contacts.hangUpCalls': hangUpContactCalls,
});
