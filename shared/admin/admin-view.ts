import { defineView } from '../resources/define.js';
import * as routing from '../resources/routing/admin.js';

/** How the resources of admin-resource.ts are shown (their views); their write side stays there. Imports no schema. */

export const unblockContactJobsView = defineView({
  name: routing.unblockContactJobs.name,
  type: 'UnblockContactJob',
  columns: ['company_id', 'user_id', 'description', 'succeeded_at', 'blocked_at_from', 'blocked_at_to', 'request_ip', 'last_contact_id', 'unblock_count'],
});

export const accessControlListsView = defineView({
  name: routing.accessControlLists.name,
  type: 'AccessControlList',
  columns: ['company_id', 'name', 'users_emails', 'permissions'],
});
