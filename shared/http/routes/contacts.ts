import { API, type RouteDefinition, resourceRoutes } from '../route-definition.js';
import { MAX_UPLOAD_BYTES } from '../../contact-imports/import-keys.js';
import { contactsRoutings } from '../../resources/routing/contacts.js';

/** The contacts function's routes: its resources', then contacts (one caller number across the company's leads and calls), the blacklist, data appends and imports. */
export const contactsRoutes: readonly RouteDefinition[] = [
  ...contactsRoutings.flatMap(resourceRoutes),
  { method: 'POST', path: `${API}/contacts/{caller_id}/caller_block`, group: 'contacts', auth: 'basic', operation: 'contacts.callerBlock' },
  { method: 'POST', path: `${API}/contacts/{caller_id}/caller_unblock`, group: 'contacts', auth: 'basic', operation: 'contacts.callerUnblock' },
  { method: 'GET', path: `${API}/contacts/suppression_list`, group: 'contacts', auth: 'basic', operation: 'contacts.suppressionList' },
  // `{id}` is the caller number.
  { method: 'GET', path: `${API}/contacts/{id}`, group: 'contacts', auth: 'basic', operation: 'contacts.show' },
  { method: 'PUT', path: `${API}/contacts/{id}`, group: 'contacts', auth: 'basic', operation: 'contacts.update' },
  { method: 'DELETE', path: `${API}/contacts/{id}/calls`, group: 'contacts', auth: 'basic', operation: 'contacts.hangUpCalls' },
  { method: 'POST', path: `${API}/data_append`, group: 'contacts', auth: 'basic', operation: 'data_append.request' },
  { method: 'POST', path: `${API}/contact_imports/{id}/resume`, group: 'contacts', auth: 'basic', operation: 'contact_imports.resume' },
  // An upload import's file, with local object storage (in AWS the file goes to S3's presigned URL); the token is the secret.
  { method: 'PUT', path: `${API}/contact_imports/uploads/{upload_token}`, group: 'contacts', auth: 'none', operation: 'contact_imports.upload', rawBody: { maxBytes: MAX_UPLOAD_BYTES } },
];
