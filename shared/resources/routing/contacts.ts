import { ALL_OPERATIONS } from '../define.js';
import { CONTACT_IMPORT_UPLOAD } from '../../contact-imports/import-keys.js';
import { routing, type ResourceRouting } from './resource-routing.js';

/** The routing facts of the resources the contacts function serves (a function imports only its own group's). */
export const contactFields = routing({ name: 'contact_fields', group: 'contacts', operations: ALL_OPERATIONS, csv: true });
export const contactFieldValues = routing({ name: 'contact_field_values', group: 'contacts', operations: ALL_OPERATIONS, csv: true });
export const contactFieldViews = routing({ name: 'contact_field_views', group: 'contacts', operations: ALL_OPERATIONS, csv: true });
// Written by the carrier's inbound-SMS webhook only (shared/messaging/inbound-sms.ts): no create.
export const incomingTextMessages = routing({ name: 'incoming_text_messages', group: 'contacts', operations: ['list', 'show'], csv: true });
export const dataAppendGroups = routing({ name: 'data_append_groups', group: 'contacts', operations: ALL_OPERATIONS, csv: true });
export const dataAppends = routing({ name: 'data_appends', group: 'contacts', operations: ALL_OPERATIONS, csv: true });
// The CSV arrives in the create's body (shared/contact-imports/contact-imports-resource.ts bounds it); no delete: an import is history.
export const contactImports = routing({ name: 'contact_imports', group: 'contacts', operations: ['list', 'new', 'create', 'show', 'update'], createLargeField: CONTACT_IMPORT_UPLOAD, csv: true });

/** The contacts group's resources, in the route table's order. */
export const contactsRoutings: readonly ResourceRouting[] = [contactFields, contactFieldValues, contactFieldViews, incomingTextMessages, dataAppendGroups, dataAppends, contactImports];
