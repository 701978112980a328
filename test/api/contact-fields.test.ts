import { describe, expect, it } from 'vitest';
import { drainLocalWork } from '../../shared/adapters/background-work.js';
import { clock } from '../../shared/adapters/clock.js';
import { createTestCompany, type TestCompany } from '../fixtures/company.js';
import { expect404, expect422, recordOf } from '../fixtures/envelope.js';
import { call, useGateway } from '../fixtures/gateway.js';
import { asCompany } from '../fixtures/leads.js';
import { createThrough, listThrough } from '../fixtures/records.js';
import { storeLead } from '../fixtures/stored-leads.js';

/**
 * Custom contact fields (docs/resources.md, "Contact fields"): declarations with their rules,
 * values checked by the field's declared type on contacts and leads of the caller's company,
 * one value per field and owner, a field's deletion taking its values, and views.
 */
const gateway = useGateway();

let callers = 0;
const newCaller = () => `+1415559${String(1000 + ++callers)}`;
const as = (company: TestCompany, method: string, path: string, json?: unknown) => asCompany(gateway, company, method, path, json);

/** A company with one lead; the lead's caller number is a contact the company knows. */
async function world(label: string) {
  const company = await createTestCompany(label);
  const caller = newCaller();
  const lead = await storeLead(company.id, clock().now(), { caller_id: caller });
  return { company, caller, lead };
}

const field = (company: TestCompany, json: Record<string, unknown>) => createThrough(gateway, company, '/api/v1/contact_fields', json);

describe('contact_fields', () => {
  it('are declared with a type, options and a default of that type, validated, listed (JSON and CSV), updated and deleted', async () => {
    const { company } = await world('fields');
    const tier = await field(company, { name: 'Tier', key: 'tier', field_type: 'select', options: 'gold, silver', default_value: 'silver', required: 'true', applies_to: 'leads' });
    expect(tier).toMatchObject({ type: 'ContactField', key: 'tier', field_type: 'select', options: ['gold', 'silver'], default_value: 'silver', required: true, applies_to: 'leads', sortable_order: 0 });
    const phone = await field(company, { name: 'Work phone', key: 'work_phone', field_type: 'phone', default_value: '(415) 555-2671', sortable_order: 2 });
    expect(phone).toMatchObject({ default_value: '+14155552671', applies_to: 'both', required: false });
    expect(recordOf(await as(company, 'GET', '/api/v1/contact_fields/new'), 'contact_field')).toMatchObject({ id: null, field_type: 'string', applies_to: 'both' });

    expect422(await as(company, 'POST', '/api/v1/contact_fields', { name: '', key: 'Bad Key', field_type: 'colour' }), {
      name: ["can't be blank"],
      key: ['must start with a lower-case letter and hold only lower-case letters, digits and underscores'],
      field_type: ['is not included in the list (string, text, integer, decimal, boolean, date, datetime, email, phone, url, select, multi_select)'],
    });
    expect422(await as(company, 'POST', '/api/v1/contact_fields', { name: 'Plan', key: 'plan', field_type: 'select' }), { options: ["can't be blank for a select field"] });
    expect422(await as(company, 'POST', '/api/v1/contact_fields', { name: 'Age', key: 'age', field_type: 'integer', default_value: 'old' }), { default_value: ['is not an integer'] });
    expect422(await as(company, 'POST', '/api/v1/contact_fields', { name: 'Age', key: 'age', field_type: 'integer', options: ['a'] }), {
      options: ['must be blank for a integer field (only select and multi_select have options)'],
    });
    expect422(await as(company, 'POST', '/api/v1/contact_fields', { name: 'Many', key: 'many', field_type: 'select', options: Array.from({ length: 101 }, (_, i) => `o${i}`) }), {
      options: ['has too many options (maximum is 100)'],
    });
    const taken = await as(company, 'POST', '/api/v1/contact_fields', { name: 'Tier again', key: 'tier', field_type: 'string' });
    expect(taken.status).toBe(409);
    expect(taken.body.errors).toEqual({ key: ['has already been taken'] });

    const rows = await listThrough(gateway, company, '/api/v1/contact_fields?field_type=phone', 'contact_fields');
    expect(rows.map((row) => row.id)).toEqual([phone.id]);
    const csv = await call(gateway, { path: '/api/v1/contact_fields.csv?columns=id,key,field_type', authorization: company.authorization });
    expect(csv.status).toBe(200);
    expect(csv.text.trim().split('\n')).toEqual(['id,key,field_type', `${tier.id},tier,select`, `${phone.id},work_phone,phone`]);

    // A new type: the old default must fit it or go.
    expect422(await as(company, 'PUT', `/api/v1/contact_fields/${phone.id}`, { field_type: 'integer' }), { default_value: ['is not an integer'] });
    const retyped = recordOf(await as(company, 'PUT', `/api/v1/contact_fields/${phone.id}`, { field_type: 'integer', default_value: '7' }), 'contact_field');
    expect(retyped).toMatchObject({ field_type: 'integer', default_value: 7 });
    expect((await as(company, 'DELETE', `/api/v1/contact_fields/${phone.id}`)).status).toBe(200);
    expect404(await as(company, 'GET', `/api/v1/contact_fields/${phone.id}`));
  });
});

describe('contact_field_values', () => {
  it('are checked and normalised by the field type, on leads and known contacts of the company only', async () => {
    const { company, caller, lead } = await world('values');
    const other = await world('values-other');
    const age = await field(company, { name: 'Age', key: 'age', field_type: 'integer' });
    const tier = await field(company, { name: 'Tier', key: 'tier', field_type: 'select', options: ['gold', 'silver'], default_value: 'silver', applies_to: 'leads' });
    const mobile = await field(company, { name: 'Mobile', key: 'mobile', field_type: 'phone', required: true });
    const paths = '/api/v1/contact_field_values';

    expect422(await as(company, 'POST', paths, { contact_field_id: age.id, lead_id: lead.id, value: 'ten' }), { value: ['is not an integer'] });
    expect422(await as(company, 'POST', paths, { contact_field_id: tier.id, lead_id: lead.id, value: 'bronze' }), { value: ['is not included in the list (gold, silver)'] });
    expect422(await as(company, 'POST', paths, { contact_field_id: mobile.id, contact_id: caller, value: '' }), { value: ["can't be blank (mobile is required)"] });
    expect422(await as(company, 'POST', paths, { contact_field_id: mobile.id, contact_id: caller, value: 'call me' }), { value: ['is not a phone number'] });
    expect422(await as(company, 'POST', paths, { contact_field_id: tier.id, contact_id: caller }), { contact_field_id: ['applies to leads only, not to contacts'] });
    expect422(await as(company, 'POST', paths, { contact_field_id: age.id, value: 3 }), {
      contact_id: ["can't be blank: give contact_id or lead_id"],
      lead_id: ["can't be blank: give contact_id or lead_id"],
    });
    expect422(await as(company, 'POST', paths, { contact_field_id: age.id, contact_id: caller, lead_id: lead.id, value: 3 }), {
      contact_id: ['give contact_id or lead_id, not both'],
      lead_id: ['give contact_id or lead_id, not both'],
    });
    // Another company's lead, contact and field are unknown here.
    expect422(await as(company, 'POST', paths, { contact_field_id: age.id, lead_id: other.lead.id, value: 3 }), { lead_id: [`does not exist: ${other.lead.id}`] });
    expect422(await as(company, 'POST', paths, { contact_field_id: age.id, contact_id: other.caller, value: 3 }), { contact_id: [`does not exist: ${other.caller}`] });
    expect422(await as(company, 'POST', paths, { contact_field_id: 999999, lead_id: lead.id, value: 3 }), { contact_field_id: ['does not exist: 999999'] });

    const leadAge = await createThrough(gateway, company, paths, { contact_field_id: age.id, lead_id: lead.id, value: '42' });
    expect(leadAge).toMatchObject({ type: 'ContactFieldValue', contact_field_id: age.id, lead_id: lead.id, contact_id: null, value: 42 });
    expect(leadAge).not.toHaveProperty('field_owner');
    const leadTier = await createThrough(gateway, company, paths, { contact_field_id: tier.id, lead_id: lead.id });
    expect(leadTier.value).toBe('silver');
    const contactMobile = await createThrough(gateway, company, paths, { contact_field_id: mobile.id, contact_id: caller.slice(2), value: '(212) 555-0142' });
    expect(contactMobile).toMatchObject({ contact_id: caller, lead_id: null, value: '+12125550142' });

    // One value per field and owner: a second is a 409 (the first is updated instead).
    const again = await as(company, 'POST', paths, { contact_field_id: age.id, lead_id: lead.id, value: 43 });
    expect(again.status).toBe(409);
    expect((await as(company, 'POST', paths, { contact_field_id: age.id, contact_id: caller, value: 43 })).status).toBe(200);
    expect422(await as(company, 'PUT', `${paths}/${leadAge.id}`, { value: '4.5' }), { value: ['is not an integer'] });
    expect(recordOf(await as(company, 'PUT', `${paths}/${leadAge.id}`, { value: -3, contact_field_id: mobile.id }), 'contact_field_value')).toMatchObject({ value: -3, contact_field_id: age.id });

    const ofLead = await listThrough(gateway, company, `${paths}?lead_id=${lead.id}`, 'contact_field_values');
    expect(ofLead.map((row) => [row.contact_field_id, row.value])).toEqual([
      [age.id, -3],
      [tier.id, 'silver'],
    ]);
    const ofContact = await listThrough(gateway, company, `${paths}?contact_id=${encodeURIComponent(caller)}`, 'contact_field_values');
    expect(ofContact.map((row) => row.contact_field_id)).toEqual([mobile.id, age.id]);
    expect404(await as(other.company, 'GET', `${paths}/${leadAge.id}`));
    expect404(await as(other.company, 'PUT', `${paths}/${leadAge.id}`, { value: 1 }));
  });

  it("block a change of their field's type or owners, and go with their field when it is deleted", async () => {
    const { company, lead } = await world('field-delete');
    const age = await field(company, { name: 'Age', key: 'age', field_type: 'integer' });
    const value = await createThrough(gateway, company, '/api/v1/contact_field_values', { contact_field_id: age.id, lead_id: lead.id, value: 30 });
    const view = await createThrough(gateway, company, '/api/v1/contact_field_views', { name: 'Lead view', contact_field_ids: [age.id], applies_to: 'leads' });

    const retype = await as(company, 'PUT', `/api/v1/contact_fields/${age.id}`, { field_type: 'string' });
    expect(retype.status).toBe(409);
    expect(retype.body.errors.field_type[0]).toContain('cannot change while the field has values');
    expect((await as(company, 'PUT', `/api/v1/contact_fields/${age.id}`, { applies_to: 'contacts' })).status).toBe(409);
    // Owners it keeps, and names, may change.
    expect((await as(company, 'PUT', `/api/v1/contact_fields/${age.id}`, { applies_to: 'leads', name: 'Years' })).status).toBe(200);

    expect((await as(company, 'DELETE', `/api/v1/contact_fields/${age.id}`)).status).toBe(200);
    expect404(await as(company, 'GET', `/api/v1/contact_field_values/${value.id}`));
    // The views forget it with the cleanup in the background (test/api/contact-field-cleanup.test.ts).
    await drainLocalWork();
    expect(recordOf(await as(company, 'GET', `/api/v1/contact_field_views/${view.id}`), 'contact_field_view').contact_field_ids).toEqual([]);
    // Its (field, owner) slot is free again for a new field's value.
    const again = await field(company, { name: 'Age', key: 'age', field_type: 'integer' });
    expect((await as(company, 'POST', '/api/v1/contact_field_values', { contact_field_id: again.id, lead_id: lead.id, value: 31 })).status).toBe(200);
  });
});

describe('contact_field_views', () => {
  it('list fields of their kind in order, with at most one default per kind', async () => {
    const { company } = await world('views');
    const other = await world('views-other');
    const a = await field(company, { name: 'A', key: 'a', field_type: 'string' });
    const b = await field(company, { name: 'B', key: 'b', field_type: 'string', applies_to: 'leads' });

    const first = await createThrough(gateway, company, '/api/v1/contact_field_views', { name: 'Lead view', contact_field_ids: `${b.id},${a.id}`, applies_to: 'leads', is_default: true });
    expect(first).toMatchObject({ type: 'ContactFieldView', contact_field_ids: [b.id, a.id], applies_to: 'leads', is_default: true });
    expect422(await as(company, 'POST', '/api/v1/contact_field_views', { name: 'Contacts', contact_field_ids: [a.id, b.id] }), { contact_field_ids: [`apply to another kind than contacts: ${b.id}`] });
    expect422(await as(company, 'POST', '/api/v1/contact_field_views', { name: 'Twice', contact_field_ids: [a.id, a.id] }), { contact_field_ids: ['lists a field twice'] });
    const unknown = 999999;
    expect422(await as(company, 'POST', '/api/v1/contact_field_views', { name: 'Unknown', contact_field_ids: [a.id, unknown] }), { contact_field_ids: [`does not exist: ${unknown}`] });

    const contactsDefault = await createThrough(gateway, company, '/api/v1/contact_field_views', { name: 'Contact view', contact_field_ids: [a.id], is_default: true });
    const second = await createThrough(gateway, company, '/api/v1/contact_field_views', { name: 'Lead view 2', contact_field_ids: [a.id], applies_to: 'leads', is_default: 'yes' });
    const defaults = await listThrough(gateway, company, '/api/v1/contact_field_views?is_default=true', 'contact_field_views');
    expect(defaults.map((row) => row.id).sort()).toEqual([contactsDefault.id, second.id].sort());
    expect(recordOf(await as(company, 'GET', `/api/v1/contact_field_views/${first.id}`), 'contact_field_view').is_default).toBe(false);
    expect404(await as(other.company, 'DELETE', `/api/v1/contact_field_views/${first.id}`));
  });
});
