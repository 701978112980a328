import * as v from 'valibot';
import { blankable, presentString } from '../http/param-schemas.js';
import { defineResource } from './define.js';
import { emailParam, listOf, optionalText, timeParam } from './field-schemas.js';
import * as routing from './routing/admin.js';
import { unblockContactJobsView, accessControlListsView } from './views/admin.js';

const time = v.optional(blankable(timeParam));

/**
 * Blacklist clearing jobs: a created job removes the blacklist entries blocked within its
 * `blocked_at_from`..`blocked_at_to` in the create request and records `unblock_count` and
 * `succeeded_at` (shared/contacts/unblock-job.ts; at most 1,000 entries looked at per job).
 */
export const unblockContactJobs = defineResource({
  ...routing.unblockContactJobs,
  ...unblockContactJobsView,
  root: 'unblock_contact_job',
  plural: 'unblock_contact_jobs',
  createSchema: v.object({ description: optionalText, blocked_at_from: time, blocked_at_to: time, request_ip: optionalText, last_contact_id: optionalText }),
  updateSchema: v.object({ description: optionalText, blocked_at_from: time, blocked_at_to: time, request_ip: optionalText, last_contact_id: optionalText }),
  defaults: { unblock_count: 0 },
  fulltextFields: ['description', 'request_ip'],
  generate: (context) => ({ user_id: context.userId ?? null }),
  behaviour: () => import('../contacts/unblock-job.js'),
});

/** Teams: a name and the e-mail addresses of their members. */
export const accessControlLists = defineResource({
  ...routing.accessControlLists,
  ...accessControlListsView,
  root: 'access_control_list',
  plural: 'access_control_lists',
  createSchema: v.object({ name: presentString, users_emails: v.optional(blankable(listOf(emailParam, 'is not a list of e-mail addresses'))) }),
  updateSchema: v.object({
    name: v.optional(presentString),
    users_emails: v.optional(blankable(listOf(emailParam, 'is not a list of e-mail addresses'))),
  }),
  defaults: { users_emails: [] },
  order: { values: ['id', 'name', 'created_at', 'updated_at'], default: 'id' },
  fulltextFields: ['name', 'users_emails'],
});
