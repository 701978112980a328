import * as v from 'valibot';
import { normalizedPermissions, permissionProblems } from '../auth/permission-catalog.js';
import { blankable, jsonObject, presentString } from '../http/param-schemas.js';
import { defineResource } from '../resources/define.js';
import { emailParam, listOf, optionalText, timeParam } from '../resources/field-schemas.js';
import * as routing from '../resources/routing/admin.js';
import { unblockContactJobsView, accessControlListsView } from './admin-view.js';

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

/**
 * A team's `permissions`: per permission group (a resource, or a hand-written group such as
 * `calls`), the actions its members may take and, optionally, the only fields their writes may
 * set (shared/auth/permission-catalog.ts checks both against the declarations; docs/permissions.md).
 */
const permissionsParam = jsonObject(
  v.pipe(
    v.record(v.string(), v.unknown()),
    v.rawCheck(({ dataset, addIssue }) => {
      if (dataset.typed) for (const message of permissionProblems(dataset.value)) addIssue({ message });
    }),
    v.transform((value) => normalizedPermissions(value as Record<string, { actions: string[]; fields?: string[] }>)),
  ),
  'is not a hash of permission groups',
);

/** Teams: a name, the e-mail addresses of their members and what the members may do. */
export const accessControlLists = defineResource({
  ...routing.accessControlLists,
  ...accessControlListsView,
  root: 'access_control_list',
  plural: 'access_control_lists',
  createSchema: v.object({
    name: presentString,
    users_emails: v.optional(blankable(listOf(emailParam, 'is not a list of e-mail addresses'))),
    permissions: v.optional(blankable(permissionsParam)),
  }),
  updateSchema: v.object({
    name: v.optional(presentString),
    users_emails: v.optional(blankable(listOf(emailParam, 'is not a list of e-mail addresses'))),
    permissions: v.optional(blankable(permissionsParam)),
  }),
  defaults: { users_emails: [], permissions: {} },
  order: { values: ['id', 'name', 'created_at', 'updated_at'], default: 'id' },
  fulltextFields: ['name', 'users_emails'],
});
