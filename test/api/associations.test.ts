import { beforeEach, describe, expect, it } from 'vitest';
import { createTestCompany, type TestCompany } from '../fixtures/company.js';
import { call, type ApiReply, useGateway } from '../fixtures/gateway.js';
import { createThrough } from '../fixtures/records.js';
import { useDynamoRequests } from '../fixtures/dynamo-requests.js';

/**
 * The envelope's `associations` (docs/resources.md, "Associations"): the records a record's id
 * lists name, in a brief form, on show, create, update, delete and new answers; company-scoped
 * on write and on read; read with one BatchGetItem; deleted records left out; never on lists.
 */
const gateway = useGateway();
const log = useDynamoRequests();
let company: TestCompany;
let other: TestCompany;

beforeEach(async () => {
  company = await createTestCompany('associations');
  other = await createTestCompany('associations-other');
});

type Row = Record<string, any>;

const ACTIONS = '/api/v1/schedule_actions';

function api(owner: TestCompany, method: string, path: string, json?: unknown): Promise<ApiReply> {
  return call(gateway, { method, path, authorization: owner.authorization, json });
}

/** A 422 naming `field` (and only it): refused like an unknown id. */
function expectRefused(reply: ApiReply, field: string): void {
  expect(reply.status, reply.text).toBe(422);
  expect(Object.keys(reply.body.errors)).toEqual([field]);
}

async function integration(owner: TestCompany, type: string): Promise<Row> {
  return createThrough(gateway, owner, '/api/v1/integrations', { integration_type: type });
}

async function waitAction(owner: TestCompany, fields: Record<string, unknown>): Promise<ApiReply> {
  const schedule = await createThrough(gateway, owner, '/api/v1/schedules', { name: 'Follow-up' });
  return api(owner, 'POST', ACTIONS, { schedule_id: schedule.id, owner_relation: 'actions', action_type: 'wait', action_wait_type: 'days', wait_days: 1, ...fields });
}

describe('schedule action integrations', () => {
  it('lists the linked integrations in brief on create, show, update and delete, and none on list rows', async () => {
    const crm = await integration(company, 'crm_one');
    const chat = await integration(company, 'team_chat');
    const created = await waitAction(company, { integration_ids: [crm.id, chat.id] });
    expect(created.status, created.text).toBe(200);
    expect(created.body.action_wait.integration_ids).toEqual([crm.id, chat.id]);
    expect(created.body.associations).toEqual({
      integrations: [
        { id: crm.id, name: 'Crm one', integration_type: 'crm_one', active: false, connected_status: 'disconnected' },
        { id: chat.id, name: 'Team chat', integration_type: 'team_chat', active: false, connected_status: 'disconnected' },
      ],
    });
    const id = created.body.action_wait.id as number;

    // A change to the integration shows on the next answer: associations are read, not copied.
    expect((await api(company, 'PUT', `/api/v1/integrations/objects/${crm.id}`, { active: true })).status).toBe(200);
    const shown = await api(company, 'GET', `${ACTIONS}/${id}`);
    expect(shown.body.associations.integrations.map((row: Row) => [row.id, row.active])).toEqual([
      [crm.id, true],
      [chat.id, false],
    ]);

    const updated = await api(company, 'PUT', `${ACTIONS}/${id}`, { integration_ids: [chat.id] });
    expect(updated.status, updated.text).toBe(200);
    expect(updated.body.associations.integrations.map((row: Row) => row.id)).toEqual([chat.id]);

    const listed = await api(company, 'GET', ACTIONS);
    expect(listed.body).not.toHaveProperty('associations');
    expect(listed.body.schedule_actions[0].integration_ids).toEqual([chat.id]);

    const removed = await api(company, 'DELETE', `${ACTIONS}/${id}`);
    expect(removed.body.associations.integrations.map((row: Row) => row.id)).toEqual([chat.id]);
  });

  it('refuses another company’s integration like an unknown one, and more than 100 ids', async () => {
    // Ids are per company: the other company's third integration has an id this company has none of.
    await integration(other, 'forms');
    await integration(other, 'forms');
    const theirs = await integration(other, 'crm_one');
    const mine = await integration(company, 'crm_one');
    expectRefused(await waitAction(company, { integration_ids: [theirs.id] }), 'integration_ids');
    expectRefused(await waitAction(company, { integration_ids: [mine.id, 999_999] }), 'integration_ids');
    expectRefused(await waitAction(company, { integration_ids: Array.from({ length: 101 }, (_, index) => index + 1) }), 'integration_ids');
    const created = await waitAction(company, { integration_ids: [mine.id] });
    const id = created.body.action_wait.id as number;
    expectRefused(await api(company, 'PUT', `${ACTIONS}/${id}`, { integration_ids: [mine.id, theirs.id] }), 'integration_ids');
    // Nothing was written: the action still names only its own integration.
    expect((await api(company, 'GET', `${ACTIONS}/${id}`)).body.associations.integrations.map((row: Row) => row.id)).toEqual([mine.id]);
    // `new` prefilled with another company's id shows nothing of it.
    const draft = await api(company, 'GET', `${ACTIONS}/new?integration_ids=${theirs.id}`);
    expect(draft.status, draft.text).toBe(200);
    expect(draft.body.associations).toEqual({ integrations: [] });
  });

  it('leaves out a deleted integration instead of failing', async () => {
    const kept = await integration(company, 'forms');
    const gone = await integration(company, 'crm_two');
    const id = (await waitAction(company, { integration_ids: [gone.id, kept.id] })).body.action_wait.id as number;
    expect((await api(company, 'DELETE', `/api/v1/integrations/${gone.id}`)).status).toBe(200);
    const shown = await api(company, 'GET', `${ACTIONS}/${id}`);
    expect(shown.status, shown.text).toBe(200);
    expect(shown.body.action_wait.integration_ids).toEqual([gone.id, kept.id]);
    expect(shown.body.associations.integrations.map((row: Row) => row.id)).toEqual([kept.id]);
  });

  it('shows actions without integrations an empty list', async () => {
    const created = await waitAction(company, {});
    expect(created.body.action_wait.integration_ids).toEqual([]);
    expect(created.body.associations).toEqual({ integrations: [] });
  });
});

describe('buyer groups and ping webhooks', () => {
  it('shows a group’s buyers and refuses another company’s buyer', async () => {
    const alpha = await createThrough(gateway, company, '/api/v1/buyers', { name: 'Alpha' });
    const bravo = await createThrough(gateway, company, '/api/v1/buyers', { name: 'Bravo' });
    for (const name of ['One', 'Two']) await createThrough(gateway, other, '/api/v1/buyers', { name });
    // Ids are per company: their third buyer has an id this company has none of.
    const theirs = await createThrough(gateway, other, '/api/v1/buyers', { name: 'Theirs' });
    const created = await api(company, 'POST', '/api/v1/buyer_groups/0', { name: 'Team', buyer_ids: [bravo.id, alpha.id] });
    expect(created.status, created.text).toBe(200);
    expect(created.body.associations).toEqual({ buyers: [{ id: bravo.id, name: 'Bravo' }, { id: alpha.id, name: 'Alpha' }] });
    const shown = await api(company, 'GET', `/api/v1/buyer_groups/${created.body.buyer_group.id}`);
    expect(shown.body.associations.buyers.map((row: Row) => row.name)).toEqual(['Bravo', 'Alpha']);
    expectRefused(await api(company, 'PUT', `/api/v1/buyer_groups/${created.body.buyer_group.id}`, { buyer_ids: [theirs.id] }), 'buyer_ids');
  });

  it('shows a webhook’s buyers, buyer groups and call routers, all read with one BatchGetItem', async () => {
    const buyer = await createThrough(gateway, company, '/api/v1/buyers', { name: 'Alpha' });
    const group = (await api(company, 'POST', '/api/v1/buyer_groups/0', { name: 'Team', buyer_ids: [buyer.id] })).body.buyer_group as Row;
    const router = await createThrough(gateway, company, '/api/v1/call_routers', { name: 'Main menu', prompt_text: 'Press 1' });
    await createThrough(gateway, other, '/api/v1/call_routers', { name: 'One', prompt_text: 'Press 1' });
    const theirRouter = await createThrough(gateway, other, '/api/v1/call_routers', { name: 'Theirs', prompt_text: 'Press 1' });
    const fields = { vanity_uri: `assoc-${company.id}`, buyer_ids: [buyer.id], buyer_group_ids: [group.id], call_router_ids: [router.id] };
    expectRefused(await api(company, 'POST', '/api/v1/inbound_webhooks', { ...fields, call_router_ids: [theirRouter.id] }), 'call_router_ids');
    const webhook = await createThrough(gateway, company, '/api/v1/inbound_webhooks', fields);

    log.reset();
    const shown = await api(company, 'GET', `/api/v1/inbound_webhooks/${webhook.id}`);
    expect(shown.body.associations).toEqual({
      buyers: [{ id: buyer.id, name: 'Alpha' }],
      buyer_groups: [{ id: group.id, name: 'Team' }],
      call_routers: [{ id: router.id, name: 'Main menu' }],
    });
    expect(log.count('BatchGetItemCommand')).toBe(1);
    expect(log.batchGetKeys()).toHaveLength(3);
  });
});
