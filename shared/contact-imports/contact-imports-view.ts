import { defineView } from '../resources/define.js';
import * as routing from '../resources/routing/contacts.js';

/** How the resources of contact-imports-resource.ts are shown (their views); their write side stays there. Imports no schema. */

export const contactImportsView = defineView({
  name: routing.contactImports.name,
  type: 'ContactImport',
  columns: [
    'company_id',
    'name',
    'import_type',
    'source',
    'file_size',
    'upload_expires_at',
    'offer_id',
    'schedule_id',
    'status',
    'columns',
    'total_rows',
    'processed_rows',
    'imported_count',
    'error_count',
    'row_errors',
    'file_errors',
    'started_at',
    'finished_at',
  ],
  foreignKeys: { offer_id: { resource: 'offers' }, schedule_id: { resource: 'schedules' } },
});
