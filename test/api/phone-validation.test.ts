import { beforeAll, describe, expect, it } from 'vitest';
import { parsePhone } from '../../shared/phone.js';
import { validPhoneNumber } from '../../shared/phone-validation.js';
import { createTestCompany, type TestCompany } from '../fixtures/company.js';
import { expect422 } from '../fixtures/envelope.js';
import { call, useGateway } from '../fixtures/gateway.js';
import { createThrough } from '../fixtures/records.js';

/**
 * Numbers we dial, buy or store are validated with libphonenumber's full metadata (issue 32,
 * shared/phone-validation.ts): each number here fits its country's national pattern and lengths,
 * so the reduced `min` metadata calls it valid, but lies in a range no number type is assigned to,
 * so the full metadata refuses it. Each write is a 422 naming the field; nothing is stored.
 */
const MIN_ONLY = [
  '+17678501942', // Dominica (+1 767): an unassigned range
  '+33262549559', // France: 02 62 is no French range (Réunion has a code of its own)
  '+9113563686', // India
];

const VALID = '+14155552671';

const gateway = useGateway();
let company: TestCompany;
let offerId: number;
let phoneFieldId: number;

const api = (method: string, path: string, json?: Record<string, unknown>) => call(gateway, { method, path, authorization: company.authorization, ...(json ? { json } : {}) });

beforeAll(async () => {
  company = await createTestCompany('phone-validation');
  offerId = (await createThrough(gateway, company, '/api/v1/offers', { name: 'Offer' })).id as number;
  phoneFieldId = (await createThrough(gateway, company, '/api/v1/contact_fields', { name: 'Mobile', key: 'mobile', field_type: 'phone' })).id as number;
  // A contact with a valid number, to give a phone field's value to.
  expect((await api('PUT', `/api/v1/contacts/${encodeURIComponent(VALID)}`, { first_name: 'Ann' })).status).toBe(200);
});

describe('numbers the reduced metadata accepts and the full metadata refuses', () => {
  it('are valid for the min metadata (the premise of this file)', () => {
    for (const number of MIN_ONLY) expect(parsePhone(number)?.isValid(), number).toBe(true);
    expect(validPhoneNumber(VALID)).toBe(VALID);
    for (const number of MIN_ONLY) expect(validPhoneNumber(number), number).toBeUndefined();
  });

  it.each(MIN_ONLY)('%s is refused as a buyer, an agent, a tracking number to buy, a contact and a phone field value', async (number) => {
    expect422(await api('POST', '/api/v1/buyers', { name: 'Buyer', number }), { number: ['is not a phone number in E.164 (+ and country code) or a sip: URI'] });
    expect422(await api('POST', '/api/v1/voice_agents', { name: 'Agent', number }), { number: ['is not a phone number in E.164 (+ and country code) or a sip: URI'] });
    expect422(await api('POST', '/api/v1/phone_numbers', { offer_id: offerId, number }), { number: ['is not a phone number in E.164 (+ and country code)'] });
    expect422(await api('PUT', `/api/v1/contacts/${encodeURIComponent(number)}`, { first_name: 'Ann' }), { id: ['is not a valid phone number'] });
    expect422(await api('POST', '/api/v1/contact_field_values', { contact_field_id: phoneFieldId, contact_id: number, value: '+14155552671' }), { contact_id: ['is not a phone number'] });
    const value = await api('POST', '/api/v1/contact_field_values', { contact_field_id: phoneFieldId, contact_id: VALID, value: number });
    expect(value.status, value.text).toBe(422);
    expect(value.body.errors, value.text).toEqual({ value: ['is not a phone number'] });
  });

  it('stored nothing, while a valid number is still accepted in the same places', async () => {
    expect((await api('GET', '/api/v1/buyers')).body.buyers).toEqual([]);
    expect((await api('GET', '/api/v1/phone_numbers')).body.phone_numbers).toEqual([]);
    expect((await api('GET', '/api/v1/contact_field_values')).body.contact_field_values).toEqual([]);
    for (const number of MIN_ONLY) expect((await api('GET', `/api/v1/contacts/${encodeURIComponent(number)}`)).status).toBe(404);
    expect((await api('POST', '/api/v1/buyers', { name: 'Buyer', number: '+14155552671' })).status).toBe(200);
    expect((await api('POST', '/api/v1/contact_field_values', { contact_field_id: phoneFieldId, contact_id: VALID, value: '+442079460958' })).status).toBe(200);
  });
});
