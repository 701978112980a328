import { defineView } from '../resources/define.js';
import * as routing from '../resources/routing/contacts.js';

/** How the resources of contact-fields-resource.ts are shown (their views); their write side stays there. Imports no schema. */

export const contactFieldsView = defineView({
  name: routing.contactFields.name,
  type: 'ContactField',
  columns: ['company_id', 'name', 'key', 'field_type', 'options', 'required', 'applies_to', 'default_value', 'description', 'sortable_order'],
});

export const contactFieldValuesView = defineView({
  name: routing.contactFieldValues.name,
  type: 'ContactFieldValue',
  columns: ['company_id', 'contact_field_id', 'contact_id', 'lead_id', 'value'],
  foreignKeys: { contact_field_id: { resource: 'contact_fields', association: 'contact_field' } },
  // The values of a deleted field are gone for the API at once; the background deletes them.
  hiddenRecords: async (companyId) => (await import('./field-cleanup-store.js')).hiddenFieldValues(companyId),
});

export const contactFieldViewsView = defineView({
  name: routing.contactFieldViews.name,
  type: 'ContactFieldView',
  columns: ['company_id', 'name', 'contact_field_ids', 'applies_to', 'is_default', 'description'],
  foreignKeys: { contact_field_ids: { resource: 'contact_fields' } },
});
