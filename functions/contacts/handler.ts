import { createRouteGroupHandler } from '../../shared/http/handler.js';
import { lazyOperation } from '../../shared/http/lazy-operation.js';
import { lazyGroupOperations } from '../../shared/resources/lazy-operations.js';
import { contactsRoutings } from '../../shared/resources/routing/contacts.js';
import { contactsRoutes } from '../../shared/http/routes/contacts.js';

/** Contacts (one caller number across the company's leads and calls), the blacklist (suppression list) custom contact fields, data appends and contact imports. */
export const handler = createRouteGroupHandler('contacts', contactsRoutes, {
  ...lazyGroupOperations('contacts', contactsRoutings, async () => {
    const { incomingTextMessages } = await import('../../shared/messaging/incoming-text-messages-resource.js');
    const { contactFields, contactFieldValues, contactFieldViews } = await import('../../shared/contact-fields/contact-fields-resource.js');
    const { dataAppendGroups, dataAppends } = await import('../../shared/data-appends/data-appends-resource.js');
    const { contactImports } = await import('../../shared/contact-imports/contact-imports-resource.js');
    return [incomingTextMessages, contactFields, contactFieldValues, contactFieldViews, dataAppendGroups, dataAppends, contactImports];
  }),
  'contact_imports.resume': lazyOperation(async () => (await import('../../shared/contact-imports/import-resume.js')).resumeContactImport),
  'contact_imports.upload': lazyOperation(async () => (await import('../../shared/contact-imports/upload.js')).receiveUpload),
  'data_append.request': lazyOperation(async () => (await import('./data-append.js')).requestDataAppend),
  'contacts.callerBlock': lazyOperation(async () => (await import('./blacklist-operations.js')).callerBlock),
  'contacts.callerUnblock': lazyOperation(async () => (await import('./blacklist-operations.js')).callerUnblock),
  'contacts.suppressionList': lazyOperation(async () => (await import('./blacklist-operations.js')).suppressionList),
  'contacts.show': lazyOperation(async () => (await import('./contacts.js')).showContact),
  'contacts.update': lazyOperation(async () => (await import('./contacts.js')).updateContact),
  'contacts.hangUpCalls': lazyOperation(async () => (await import('./contacts.js')).hangUpContactCalls),
});
