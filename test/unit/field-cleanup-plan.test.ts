import { describe, expect, it } from 'vitest';
import { fieldCleanupOf, inGroups, pageOfCleanup, viewsWithout } from '../../shared/contact-fields/field-cleanup-plan.js';
import { importWorkOf } from '../../shared/contact-imports/import-keys.js';

/** The pure steps of a deleted contact field's cleanup (shared/contact-fields/field-cleanup-plan.ts). */
describe('a contact field cleanup', () => {
  it('is read from its queued message, and from nothing else', () => {
    expect(fieldCleanupOf({ kind: 'contact_field_cleanup', companyId: 3, fieldId: 9 })).toEqual({ companyId: 3, fieldId: 9 });
    for (const message of [
      { kind: 'contact_field_cleanup', companyId: 3, fieldId: '9' },
      { kind: 'contact_field_cleanup', companyId: 0, fieldId: 9 },
      { kind: 'contact_field_cleanup', companyId: 3 },
      { kind: 'contact_import', companyId: 3, importId: 9 },
      { companyId: 3, leadId: 9, version: 1 },
      [1, 2],
      null,
      'contact_field_cleanup',
    ]) {
      expect(fieldCleanupOf(message)).toBeUndefined();
    }
    // Neither kind is taken for the other.
    expect(importWorkOf({ kind: 'contact_field_cleanup', companyId: 3, fieldId: 9 })).toBeUndefined();
  });

  it("takes the field's values of a page and carries the cursor to the page's last id", () => {
    const page = [
      { id: 4, contact_field_id: 7 },
      { id: 5, contact_field_id: 8 },
      { id: 9, contact_field_id: 7 },
      { id: 12, contact_field_id: 1 },
    ];
    expect(pageOfCleanup(7, page, 3)).toEqual({ doomed: [page[0], page[2]], cursor: 12 });
    expect(pageOfCleanup(2, page, 3)).toEqual({ doomed: [], cursor: 12 });
    // An empty page (the end) keeps the cursor.
    expect(pageOfCleanup(7, [], 12)).toEqual({ doomed: [], cursor: 12 });
  });

  it('takes the field out of the views that list it, keeping their order, and leaves the others out', () => {
    const views = [
      { id: 1, contact_field_ids: [3, 7, 5] },
      { id: 2, contact_field_ids: [3] },
      { id: 3, contact_field_ids: [7] },
      { id: 4 },
    ];
    expect(viewsWithout(7, views)).toEqual([
      { id: 1, contact_field_ids: [3, 5] },
      { id: 3, contact_field_ids: [] },
    ]);
    expect(viewsWithout(9, views)).toEqual([]);
  });

  it('deletes values in groups of at most the given size, in order', () => {
    expect(inGroups([1, 2, 3, 4, 5], 2)).toEqual([[1, 2], [3, 4], [5]]);
    expect(inGroups([], 40)).toEqual([]);
  });
});
