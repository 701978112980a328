import { afterEach, describe, expect, it } from 'vitest';
import { DeterministicDataProvider } from '../../shared/adapters/local/deterministic-data-provider.js';
import { createTestCompany, type TestCompany } from '../fixtures/company.js';
import { usePinnedClock } from '../fixtures/clock.js';
import { expect404, expect422, recordOf } from '../fixtures/envelope.js';
import { call, useGateway } from '../fixtures/gateway.js';
import { asCompany } from '../fixtures/leads.js';
import { createThrough, listThrough } from '../fixtures/records.js';

/**
 * Data appends (docs/resources.md, "Data appends and contact imports"): groups of data types,
 * requests to the data provider recorded and charged per data type in charge_rollups, and the
 * 422 naming DATA_PROVIDER when none is configured.
 */
const gateway = useGateway();
usePinnedClock(() => new Date('2026-03-04T12:00:00Z'));
const as = (company: TestCompany, method: string, path: string, json?: unknown) => asCompany(gateway, company, method, path, json);

async function rollups(company: TestCompany): Promise<Record<string, any>[]> {
  return listThrough(gateway, company, '/api/v1/charge_rollups?day_from=2026-03-04&day_to=2026-03-04', 'charge_rollups');
}

afterEach(() => {
  process.env.DATA_PROVIDER = 'local';
});

describe('data_append_groups', () => {
  it('are named sets of known data types, validated, listed (JSON and CSV), updated and deleted; another company sees none', async () => {
    const company = await createTestCompany('append groups');
    const other = await createTestCompany('append groups other');
    const group = await createThrough(gateway, company, '/api/v1/data_append_groups', { name: 'Basics', data_types: 'caller_name, carrier_type, caller_name' });
    expect(group).toMatchObject({ type: 'DataAppendGroup', name: 'Basics', data_types: ['caller_name', 'carrier_type'] });
    expect422(await as(company, 'POST', '/api/v1/data_append_groups', { name: '', data_types: ['shoe_size'] }), {
      name: ["can't be blank"],
      'data_types.0': ['is not included in the list (caller_name, carrier_type, address, demographics)'],
    });
    expect422(await as(company, 'POST', '/api/v1/data_append_groups', { name: 'Empty', data_types: [] }), { data_types: ["can't be blank"] });
    expect((await as(company, 'POST', '/api/v1/data_append_groups', { name: 'Basics', data_types: ['address'] })).status).toBe(409);
    const updated = recordOf(await as(company, 'PUT', `/api/v1/data_append_groups/${group.id}`, { data_types: ['address', 'demographics'] }), 'data_append_group');
    expect(updated.data_types).toEqual(['address', 'demographics']);
    expect((await listThrough(gateway, company, '/api/v1/data_append_groups', 'data_append_groups')).map((row) => row.id)).toEqual([group.id]);
    const csv = await call(gateway, { path: '/api/v1/data_append_groups.csv?columns=id,name', authorization: company.authorization });
    expect(csv.status).toBe(200);
    expect(csv.text.trim().split('\n')).toEqual(['id,name', `${group.id},Basics`]);
    expect404(await as(other, 'GET', `/api/v1/data_append_groups/${group.id}`));
    expect404(await as(other, 'DELETE', `/api/v1/data_append_groups/${group.id}`));
    expect((await as(company, 'DELETE', `/api/v1/data_append_groups/${group.id}`)).status).toBe(200);
    expect404(await as(company, 'GET', `/api/v1/data_append_groups/${group.id}`));
  });
});

describe('data appends', () => {
  it('ask the local provider, record the answer and charge each data type in charge_rollups', async () => {
    const company = await createTestCompany('appends');
    const other = await createTestCompany('appends other');
    const group = await createThrough(gateway, company, '/api/v1/data_append_groups', { name: 'Where', data_types: ['address'] });
    const expected = await new DeterministicDataProvider().lookup('+13035550100', ['caller_name', 'address']);

    const reply = await as(company, 'POST', '/api/v1/data_append', { caller_number: '(303) 555-0100', data_types: ['caller_name'], data_append_group_id: group.id });
    const append = recordOf(reply, 'data_append');
    expect(append).toMatchObject({
      type: 'DataAppend',
      caller_number: '+13035550100',
      data_types: ['caller_name', 'address'],
      data_append_group_id: group.id,
      provider: 'local',
      result: expected,
      charge: 0.03,
      charges: { caller_name: 0.01, address: 0.02 },
    });
    // The same number gives the same data, through the resource's own create too.
    const again = await createThrough(gateway, company, '/api/v1/data_appends', { caller_number: '+13035550100', data_types: 'caller_name' });
    expect(again.result).toEqual({ caller_name: expected.caller_name });

    const charged = await rollups(company);
    expect(charged.map(({ kind, count, amount }) => ({ kind, count, amount })).sort((x, y) => x.kind.localeCompare(y.kind))).toEqual([
      { kind: 'data_append_address', count: 1, amount: 0.02 },
      { kind: 'data_append_caller_name', count: 2, amount: 0.02 },
    ]);
    expect(await rollups(other)).toEqual([]);

    // Listed and filtered; only notes change; another company's group is refused like an unknown one.
    const rows = await listThrough(gateway, company, '/api/v1/data_appends?caller_number=3035550100', 'data_appends');
    expect(rows.map((row) => row.id).sort()).toEqual([append.id, again.id].sort());
    expect(recordOf(await as(company, 'PUT', `/api/v1/data_appends/${append.id}`, { notes: 'checked' }), 'data_append')).toMatchObject({ notes: 'checked', charge: 0.03 });
    expect422(await as(company, 'PUT', `/api/v1/data_appends/${append.id}`, { charge: 0 }), { charge: ['cannot be changed: make another data append'] });
    expect404(await as(other, 'GET', `/api/v1/data_appends/${append.id}`));
    const foreign = await as(other, 'POST', '/api/v1/data_append', { caller_number: '+13035550100', data_append_group_id: group.id });
    expect(foreign.status).toBe(422);
    expect(foreign.body.errors.data_append_group_id).toBeDefined();
    expect422(await as(company, 'POST', '/api/v1/data_append', { caller_number: 'nobody', data_types: ['iq'] }), {
      caller_number: ['is not a phone number'],
      'data_types.0': ['is not included in the list (caller_name, carrier_type, address, demographics)'],
    });
    expect422(await as(company, 'POST', '/api/v1/data_append', { caller_number: '+13035550100' }), { data_types: ["can't be blank unless data_append_group_id names a group"] });
    // Refusals charge nothing.
    expect((await rollups(company)).reduce((sum, rollup) => sum + rollup.count, 0)).toBe(3);
  });

  it('are refused with a 422 naming DATA_PROVIDER when no provider is configured, and nothing is recorded or charged', async () => {
    const company = await createTestCompany('appends unconfigured');
    delete process.env.DATA_PROVIDER;
    expect422(await as(company, 'POST', '/api/v1/data_append', { caller_number: '+13035550101', data_types: ['caller_name'] }), {
      base: ['no data provider is configured: set DATA_PROVIDER'],
    });
    process.env.DATA_PROVIDER = 'acme';
    expect422(await as(company, 'POST', '/api/v1/data_appends', { caller_number: '+13035550101', data_types: ['caller_name'] }), {
      base: ['DATA_PROVIDER names an unknown data provider (acme): use local'],
    });
    expect(await listThrough(gateway, company, '/api/v1/data_appends', 'data_appends')).toEqual([]);
    expect(await rollups(company)).toEqual([]);
  });
});
