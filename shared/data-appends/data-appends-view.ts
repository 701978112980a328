import { defineView } from '../resources/define.js';
import * as routing from '../resources/routing/contacts.js';

/** How the resources of data-appends-resource.ts are shown (their views); their write side stays there. Imports no schema. */

export const dataAppendGroupsView = defineView({
  name: routing.dataAppendGroups.name,
  type: 'DataAppendGroup',
  columns: ['company_id', 'name', 'description', 'data_types'],
});

export const dataAppendsView = defineView({
  name: routing.dataAppends.name,
  type: 'DataAppend',
  columns: ['company_id', 'caller_number', 'data_types', 'data_append_group_id', 'notes', 'provider', 'result', 'charge', 'charges'],
  foreignKeys: { data_append_group_id: { resource: 'data_append_groups' } },
});
