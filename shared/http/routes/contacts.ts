import { needs } from '../../auth/permissions.js';
import { API, type RouteDefinition, resourceRoutes } from '../route-definition.js';
import { MAX_UPLOAD_BYTES } from '../../contact-imports/import-keys.js';
import { contactsRoutings } from '../../resources/routing/contacts.js';

/** The contacts function's routes: its resources', then contacts (one caller number across the company's leads and calls), the blacklist, data appends and imports. */
export const contactsRoutes: readonly RouteDefinition[] = [
  ...contactsRoutings.flatMap(resourceRoutes),
  { method: 'POST', path: `${API}/contacts/{caller_id}/caller_block`, group: 'contacts', auth: 'basic', operation: 'contacts.callerBlock', permission: needs('contacts', 'update') },
  { method: 'POST', path: `${API}/contacts/{caller_id}/caller_unblock`, group: 'contacts', auth: 'basic', operation: 'contacts.callerUnblock', permission: needs('contacts', 'update') },
  { method: 'GET', path: `${API}/contacts/suppression_list`, group: 'contacts', auth: 'basic', operation: 'contacts.suppressionList', permission: needs('contacts', 'list') },
  // `{id}` is the caller number.
  { method: 'GET', path: `${API}/contacts/{id}`, group: 'contacts', auth: 'basic', operation: 'contacts.show', permission: needs('contacts', 'show') },
  { method: 'PUT', path: `${API}/contacts/{id}`, group: 'contacts', auth: 'basic', operation: 'contacts.update', permission: needs('contacts', 'update') },
  { method: 'DELETE', path: `${API}/contacts/{id}/calls`, group: 'contacts', auth: 'basic', operation: 'contacts.hangUpCalls', permission: needs('calls', 'delete') },
  { method: 'POST', path: `${API}/data_append`, group: 'contacts', auth: 'basic', operation: 'data_append.request', permission: needs('data_appends', 'create') },
  { method: 'POST', path: `${API}/contact_imports/{id}/resume`, group: 'contacts', auth: 'basic', operation: 'contact_imports.resume', permission: needs('contact_imports', 'update') },
  // An upload import's file, with local object storage (in AWS the file goes to S3's presigned URL); the token is the secret.
  { method: 'PUT', path: `${API}/contact_imports/uploads/{upload_token}`, group: 'contacts', auth: 'none', operation: 'contact_imports.upload', rawBody: { maxBytes: MAX_UPLOAD_BYTES } },
];
