import { describe, expect, it } from 'vitest';
import { createEncryptionPort } from '../../shared/adapters/encryption.js';
import { getRecord } from '../../shared/db/records.js';
import { storedValueContext } from '../../shared/secrets/encrypted-fields.js';
import { createTestCompany, type TestCompany } from '../fixtures/company.js';
import { expect404, expect422, recordOf } from '../fixtures/envelope.js';
import { useGateway, type ApiReply } from '../fixtures/gateway.js';
import { asCompany } from '../fixtures/leads.js';
import { createThrough } from '../fixtures/records.js';

/**
 * Secret items, OAuth connections and app configs (docs/resources.md, "Secrets, OAuth connections
 * and app configs"): CRUD with their validations, write-only values that no answer shows while the
 * table holds only their ciphertext, bound to the company and record.
 */
const gateway = useGateway();
const as = (company: TestCompany, method: string, path: string, json?: unknown) => asCompany(gateway, company, method, path, json);
/** The port the service encrypted with (the test key of test/setup/adapter-env.ts). */
const port = createEncryptionPort();

/** Every answer's full text, so a value leaking into any field (or a header) is seen. */
function expectNowhere(replies: ApiReply[], ...secrets: string[]): void {
  for (const reply of replies) {
    const everything = reply.text + JSON.stringify([...reply.headers.entries()]);
    for (const secret of secrets) expect(everything).not.toContain(secret);
    expect(everything).not.toMatch(/ciphertext|local1:|kms1:/);
  }
}

describe('secret_items', () => {
  it('store only the ciphertext of a value no answer shows, bound to the company and the record', async () => {
    const company = await createTestCompany('secrets');
    const value = 'sk_live_51HyperSecretValue9876';
    const created = await as(company, 'POST', '/api/v1/secret_items', { name: 'CRM API key', description: 'For the CRM push', value });
    const secret = recordOf(created, 'secret_item');
    expect(secret).toMatchObject({ type: 'SecretItem', name: 'CRM API key', description: 'For the CRM push', value_last4: '9876', company_id: company.id });
    expect(secret).not.toHaveProperty('value');
    expect(secret.value_updated_at).toEqual(expect.any(String));

    const stored = (await getRecord(company.id, 'secret_items', secret.id))!;
    expect(stored.value).toBeUndefined();
    expect(JSON.stringify(stored)).not.toContain(value);
    const ciphertext = stored.value_ciphertext as string;
    expect(ciphertext).toMatch(/^local1:/);
    const context = storedValueContext(company.id, 'secret_items', secret.uuid, 'value');
    await expect(port.decrypt(ciphertext, context)).resolves.toBe(value);
    // Copied into another company's record, or another record, it does not decrypt.
    const other = await createTestCompany('secrets-other');
    await expect(port.decrypt(ciphertext, { ...context, company_id: String(other.id) })).rejects.toThrow();
    await expect(port.decrypt(ciphertext, { ...context, record_uuid: '00000000-0000-4000-8000-000000000000' })).rejects.toThrow();

    const shown = await as(company, 'GET', `/api/v1/secret_items/${secret.id}`);
    const listed = await as(company, 'GET', '/api/v1/secret_items');
    const csv = await as(company, 'GET', '/api/v1/secret_items.csv');
    const askedColumns = await as(company, 'GET', '/api/v1/secret_items?columns=id,value_last4');
    expect(csv.status).toBe(200);
    expect(csv.text).toContain('value_last4');
    expect(csv.text).toContain('9876');
    expect(listed.body.secret_items ?? listed.body).toBeDefined();

    // A new value is encrypted again; the old one is gone.
    const newValue = 'rotated-secret-value-ABCD';
    const updated = await as(company, 'PUT', `/api/v1/secret_items/${secret.id}`, { value: newValue, description: 'rotated' });
    expect(recordOf(updated, 'secret_item')).toMatchObject({ value_last4: 'ABCD', description: 'rotated' });
    const restored = (await getRecord(company.id, 'secret_items', secret.id))!;
    expect(restored.value_ciphertext).not.toBe(ciphertext);
    await expect(port.decrypt(restored.value_ciphertext as string, context)).resolves.toBe(newValue);
    // An update without a value keeps it.
    recordOf(await as(company, 'PUT', `/api/v1/secret_items/${secret.id}`, { name: 'CRM key' }), 'secret_item');
    expect((await getRecord(company.id, 'secret_items', secret.id))!.value_ciphertext).toBe(restored.value_ciphertext);
    const afterUpdate = [await as(company, 'GET', `/api/v1/secret_items/${secret.id}`), await as(company, 'GET', '/api/v1/secret_items?format=csv')];

    const deleted = await as(company, 'DELETE', `/api/v1/secret_items/${secret.id}`);
    expect(deleted.status).toBe(200);
    expectNowhere([created, shown, listed, csv, askedColumns, updated, ...afterUpdate, deleted], value, newValue);
    expect404(await as(company, 'GET', `/api/v1/secret_items/${secret.id}`));
  });

  it('are validated: a name, a value of at most 4 KB; short values show no last characters', async () => {
    const company = await createTestCompany('secrets-valid');
    expect422(await as(company, 'POST', '/api/v1/secret_items', { name: '', value: '' }), { name: ["can't be blank"], value: ["can't be blank"] });
    expect422(await as(company, 'POST', '/api/v1/secret_items', { name: 'Big', value: 'x'.repeat(4097) }), { value: ['is too long (maximum is 4096 bytes)'] });
    expect422(await as(company, 'POST', '/api/v1/secret_items', { name: 'Wrong', value: 42 }), { value: ['is not a string'] });
    const short = await createThrough(gateway, company, '/api/v1/secret_items', { name: 'PIN', value: '1234' });
    expect(short.value_last4).toBeNull();
    // Names are unique in the company (409, like every unique value of the engine).
    expect((await as(company, 'POST', '/api/v1/secret_items', { name: 'PIN', value: 'another-long-value' })).status).toBe(409);
    expect422(await as(company, 'PUT', `/api/v1/secret_items/${short.id}`, { value: '' }), { value: ["can't be blank"] });
    // Another company sees none of them.
    const other = await createTestCompany('secrets-valid-other');
    expect404(await as(other, 'GET', `/api/v1/secret_items/${short.id}`));
    expect404(await as(other, 'PUT', `/api/v1/secret_items/${short.id}`, { value: 'taken-over-value' }));
  });
});

describe('oauth_connections', () => {
  it('keep the tokens the client supplies encrypted and show only whether they are there', async () => {
    const company = await createTestCompany('oauth');
    const integration = await createThrough(gateway, company, '/api/v1/integrations', { integration_type: 'crm_one' });
    const accessToken = 'ya29.access-token-abcdef123456';
    const refreshToken = '1//refresh-token-zyxwv987654';
    const created = await as(company, 'POST', '/api/v1/oauth_connections', {
      integration_id: integration.id,
      provider: 'crm_one',
      name: 'Sales CRM',
      account_identifier: 'ops@example.com',
      scopes: 'contacts.read, contacts.write',
      expires_at: '2030-01-01T00:00:00Z',
      access_token: accessToken,
      refresh_token: refreshToken,
    });
    const connection = recordOf(created, 'oauth_connection');
    expect(connection).toMatchObject({
      type: 'OauthConnection',
      integration_id: integration.id,
      provider: 'crm_one',
      status: 'connected',
      scopes: ['contacts.read', 'contacts.write'],
      has_access_token: true,
      has_refresh_token: true,
    });
    expect(connection).not.toHaveProperty('access_token');
    const stored = (await getRecord(company.id, 'oauth_connections', connection.id))!;
    await expect(port.decrypt(stored.access_token_ciphertext as string, storedValueContext(company.id, 'oauth_connections', connection.uuid, 'access_token'))).resolves.toBe(accessToken);
    // One token's ciphertext is not the other's.
    await expect(port.decrypt(stored.access_token_ciphertext as string, storedValueContext(company.id, 'oauth_connections', connection.uuid, 'refresh_token'))).rejects.toThrow();

    // Disconnecting clears the refresh token; the access token stays.
    const updated = await as(company, 'PUT', `/api/v1/oauth_connections/${connection.id}`, { status: 'disconnected', refresh_token: null });
    expect(recordOf(updated, 'oauth_connection')).toMatchObject({ status: 'disconnected', has_access_token: true, has_refresh_token: false });
    expect((await getRecord(company.id, 'oauth_connections', connection.id))!.refresh_token_ciphertext ?? null).toBeNull();
    const replies = [
      created,
      updated,
      await as(company, 'GET', `/api/v1/oauth_connections/${connection.id}`),
      await as(company, 'GET', '/api/v1/oauth_connections'),
      await as(company, 'GET', '/api/v1/oauth_connections.csv'),
    ];
    expectNowhere(replies, accessToken, refreshToken);
  });

  it('are validated, and name only integrations of the caller', async () => {
    const company = await createTestCompany('oauth-valid');
    const other = await createTestCompany('oauth-valid-other');
    const theirs = await createThrough(gateway, other, '/api/v1/integrations', { integration_type: 'forms' });
    expect422(await as(company, 'POST', '/api/v1/oauth_connections', { integration_id: theirs.id, provider: 'forms', name: 'Theirs' }), { integration_id: [`does not exist: ${theirs.id}`] });
    const reply = await as(company, 'POST', '/api/v1/oauth_connections', { provider: 'Not Valid', name: '', status: 'lost', expires_at: 'soon', access_token: 'x'.repeat(4097) });
    expect(reply.status).toBe(422);
    expect(Object.keys(reply.body.errors).sort()).toEqual(['access_token', 'expires_at', 'integration_id', 'name', 'provider', 'status']);
  });
});

describe('app_configs', () => {
  it('check each value against its value_type, on create and update', async () => {
    const company = await createTestCompany('configs');
    const retention = await createThrough(gateway, company, '/api/v1/app_configs', { name: 'Retention', key: 'lead.retention_days', value: 30, value_type: 'integer' });
    expect(retention).toMatchObject({ type: 'AppConfig', key: 'lead.retention_days', value: '30', value_type: 'integer', company_id: company.id });
    const flag = await createThrough(gateway, company, '/api/v1/app_configs', { name: 'Beta', key: 'beta', value: true, value_type: 'boolean' });
    expect(flag.value).toBe('true');
    const json = await createThrough(gateway, company, '/api/v1/app_configs', { name: 'Map', key: 'map', value: { a: [1, 2] }, value_type: 'json' });
    expect(JSON.parse(json.value as string)).toEqual({ a: [1, 2] });
    const text = await createThrough(gateway, company, '/api/v1/app_configs', { name: 'Greeting', key: 'greeting', value: 'Hello' });
    expect(text.value_type).toBe('string');

    expect422(await as(company, 'POST', '/api/v1/app_configs', { name: 'N', key: 'n1', value: '3.5', value_type: 'integer' }), { value: ['is not an integer'] });
    expect422(await as(company, 'POST', '/api/v1/app_configs', { name: 'N', key: 'n2', value: 'yes', value_type: 'boolean' }), { value: ['is not a boolean (true or false)'] });
    expect422(await as(company, 'POST', '/api/v1/app_configs', { name: 'N', key: 'n3', value: '{a:1}', value_type: 'json' }), { value: ['is not valid JSON'] });
    expect422(await as(company, 'POST', '/api/v1/app_configs', { name: 'N', key: 'bad key', value: 'x', value_type: 'float' }), {
      key: ['must be letters, digits, _, . and -'],
      value_type: ['is not included in the list (string, integer, boolean, json)'],
    });
    // Changing the type alone checks the stored value against it.
    expect422(await as(company, 'PUT', `/api/v1/app_configs/${text.id}`, { value_type: 'integer' }), { value: ['is not an integer'] });
    expect(recordOf(await as(company, 'PUT', `/api/v1/app_configs/${text.id}`, { value_type: 'integer', value: '-12' }), 'app_config')).toMatchObject({ value: '-12', value_type: 'integer' });
    // Keys are unique in the company (409), not across companies.
    expect((await as(company, 'POST', '/api/v1/app_configs', { name: 'Again', key: 'beta', value: 'false', value_type: 'boolean' })).status).toBe(409);
    const other = await createTestCompany('configs-other');
    await createThrough(gateway, other, '/api/v1/app_configs', { name: 'Beta', key: 'beta', value: 'false', value_type: 'boolean' });
    expect404(await as(other, 'GET', `/api/v1/app_configs/${flag.id}`));
    const csv = await as(company, 'GET', '/api/v1/app_configs.csv?columns=key,value,value_type');
    expect(csv.text.split('\n')[0]).toBe('key,value,value_type');
    expect(csv.text).toContain('lead.retention_days,30,integer');
  });
});
