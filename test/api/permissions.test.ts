import { beforeAll, describe, expect, it } from 'vitest';
import { simulateCall } from '../../shared/local/call-simulator.js';
import { createTestCompany, type TestCompany } from '../fixtures/company.js';
import { call, useGateway, type ApiReply } from '../fixtures/gateway.js';
import { createMember, memberWith, withToken, type TestMember } from '../fixtures/members.js';
import { createThrough } from '../fixtures/records.js';
import { newCallSid, offerWithBuyers, VOICE_TOKEN } from '../fixtures/voice.js';

/**
 * What members may do (docs/permissions.md), route by route where the table-driven test
 * (route-permissions.test.ts) cannot tell: the fields a postback token may change, the calls a
 * buyer team sees, list counts, lead unblocking and inbound webhooks that require a user.
 */
const gateway = useGateway();

let company: TestCompany;
/** The team's buyer (B1, tried first) and another buyer (B2) of the same offers. */
let teamBuyer: Record<string, any>;
let otherBuyer: Record<string, any>;
let teamOffer: Record<string, any>;
let outsideOffer: Record<string, any>;
/** Calls by what the buyer team should see of them. */
const calls = { answeredByTeamBuyer: 0, rangTeamBuyerFirst: 0, teamBuyerPaused: 0, outsideOffer: 0 };
let buyerTeamMember: TestMember;

const as = (token: string, method: string, path: string, json?: unknown): Promise<ApiReply> => call(gateway, { method, path: withToken(path, token), ...(json === undefined ? {} : { json }) });
const asCompany = (method: string, path: string, json?: unknown): Promise<ApiReply> => call(gateway, { method, path, authorization: company.authorization, ...(json === undefined ? {} : { json }) });
let callers = 0;
const newCaller = () => `+1415555${String(3000 + ++callers)}`;

async function callInto(number: string, answers: boolean[]): Promise<number> {
  const placed = await simulateCall({ baseUrl: gateway.baseUrl, authToken: VOICE_TOKEN, from: newCaller(), to: number, buyers: answers.map((answer) => ({ answer, answerAfter: 1, talk: 40 })), callSid: newCallSid() });
  expect(placed.callId).toBeTypeOf('number');
  return placed.callId!;
}

beforeAll(async () => {
  company = await createTestCompany('permissions');
  buyerTeamMember = await createMember(company.id, 'buyer-team');
  const team = await offerWithBuyers(gateway, company, [{ concurrency_cap: 5 }, { concurrency_cap: 5 }], { buyerNumber: (index) => `+1212555${7100 + index}`, offerName: 'Team offer' });
  [teamBuyer, otherBuyer] = team.buyers as [Record<string, any>, Record<string, any>];
  teamOffer = team.offer;
  outsideOffer = await createThrough(gateway, company, '/api/v1/offers', { name: 'Outside offer', buyer_ids: [teamBuyer.id] });
  const outsideNumber = await createThrough(gateway, company, '/api/v1/phone_numbers', { offer_id: outsideOffer.id });
  const invited = await asCompany('PUT', `/api/v1/buyers/${teamBuyer.id}`, { generate_team: true, team_users_emails: [buyerTeamMember.email], team_offer_ids: [teamOffer.id] });
  expect(invited.status, invited.text).toBe(200);

  calls.answeredByTeamBuyer = await callInto(team.number, [true]);
  calls.rangTeamBuyerFirst = await callInto(team.number, [false, true]);
  calls.outsideOffer = await callInto(String(outsideNumber.number), [true]);
  expect((await asCompany('PUT', `/api/v1/buyers/${teamBuyer.id}`, { paused: true })).status).toBe(200);
  calls.teamBuyerPaused = await callInto(team.number, [true]);
  expect((await asCompany('PUT', `/api/v1/buyers/${teamBuyer.id}`, { paused: false })).status).toBe(200);
  const shown = async (id: number) => (await asCompany('GET', `/api/v1/calls/${id}`)).body.call;
  // The calls are what their names say (B1 is tried first).
  expect((await shown(calls.answeredByTeamBuyer)).buyer_id).toBe(teamBuyer.id);
  expect((await shown(calls.rangTeamBuyerFirst)).buyer_id).toBe(otherBuyer.id);
  expect((await shown(calls.teamBuyerPaused)).buyer_id).toBe(otherBuyer.id);
  expect((await shown(calls.outsideOffer)).buyer_id).toBe(teamBuyer.id);
}, 120_000);

describe('a postback token (a team that may update calls, limited to conversions)', () => {
  let postback: TestMember;
  beforeAll(async () => {
    postback = await memberWith(gateway, company, { calls: { actions: ['update'], fields: ['buyer_converted', 'revenue'] } }, 'postback');
  });

  it('changes buyer_converted and revenue of a call, by id or uuid', async () => {
    const id = calls.outsideOffer;
    const uuid = (await asCompany('GET', `/api/v1/calls/${id}`)).body.call.uuid as string;
    const byId = await as(postback.authToken, 'POST', `/api/v1/calls/${id}`, { buyer_converted: true, revenue: 12.5 });
    expect(byId.status, byId.text).toBe(200);
    expect(byId.body.call).toMatchObject({ buyer_converted: true, revenue: 12.5 });
    const byUuid = await as(postback.authToken, 'POST', `/api/v1/calls/${uuid}`, { revenue: 14 });
    expect(byUuid.status, byUuid.text).toBe(200);
    expect((await asCompany('GET', `/api/v1/calls/${id}`)).body.call).toMatchObject({ buyer_converted: true, revenue: 14 });
  });

  it('may not change the payout or anything else, nor read or touch other records', async () => {
    const id = calls.answeredByTeamBuyer;
    const before = (await asCompany('GET', `/api/v1/calls/${id}`)).body.call;
    const payout = await as(postback.authToken, 'POST', `/api/v1/calls/${id}`, { revenue: 99, payout: 50 });
    expect(payout.status, payout.text).toBe(403);
    expect(payout.body.errors).toEqual({ base: ['needs the calls update permission for the field payout'], payout: ['may not be changed with these credentials'] });
    // Nothing of the refused request was written, revenue included.
    const after = (await asCompany('GET', `/api/v1/calls/${id}`)).body.call;
    expect({ revenue: after.revenue, payout: after.payout }).toEqual({ revenue: before.revenue, payout: before.payout });
    for (const [method, path, json] of [
      ['GET', `/api/v1/calls/${id}`, undefined],
      ['GET', '/api/v1/calls', undefined],
      ['DELETE', `/api/v1/calls/${id}`, undefined],
      ['GET', '/api/v1/leads', undefined],
      ['PUT', `/api/v1/buyers/${teamBuyer.id}`, { paused: true }],
      ['DELETE', `/api/v1/offers/${teamOffer.id}`, undefined],
    ] as const) {
      const reply = await as(postback.authToken, method, path, json);
      expect(reply.status, `${method} ${path} ${reply.text}`).toBe(403);
      expect(reply.body.errors.base[0]).toMatch(/^needs the \w+ \w+ permission$/);
    }
    expect((await asCompany('GET', `/api/v1/buyers/${teamBuyer.id}`)).body.buyer.paused).toBe(false);
    expect((await asCompany('GET', `/api/v1/offers/${teamOffer.id}`)).status).toBe(200);
  });
});

describe('a buyer team member', () => {
  it("lists exactly the calls their buyer was dialed for on the team's offers, and counts only those", async () => {
    const reply = await as(buyerTeamMember.authToken, 'GET', '/api/v1/calls?columns=id,buyer_id,offer_id');
    expect(reply.status, reply.text).toBe(200);
    expect(reply.body.calls.map((row: any) => row.id).sort()).toEqual([calls.answeredByTeamBuyer, calls.rangTeamBuyerFirst].sort());
    expect(reply.body.metadata.total_count).toBe(2);
    // The company sees all four.
    expect((await asCompany('GET', '/api/v1/calls')).body.metadata.total_count).toBeGreaterThanOrEqual(4);
    const csv = await as(buyerTeamMember.authToken, 'GET', '/api/v1/calls.csv?columns=id');
    expect(csv.text.trim().split('\n').slice(1).sort()).toEqual([String(calls.answeredByTeamBuyer), String(calls.rangTeamBuyerFirst)].sort());
  });

  it('reads its calls, posts conversions to them, and finds the others not found', async () => {
    expect((await as(buyerTeamMember.authToken, 'GET', `/api/v1/calls/${calls.rangTeamBuyerFirst}`)).status).toBe(200);
    const converted = await as(buyerTeamMember.authToken, 'POST', `/api/v1/calls/${calls.answeredByTeamBuyer}`, { buyer_converted: true });
    expect(converted.status, converted.text).toBe(200);
    expect(converted.body.call.buyer_converted).toBe(true);
    const payout = await as(buyerTeamMember.authToken, 'POST', `/api/v1/calls/${calls.answeredByTeamBuyer}`, { payout: 1 });
    expect(payout.status).toBe(403);
    for (const id of [calls.teamBuyerPaused, calls.outsideOffer]) {
      expect((await as(buyerTeamMember.authToken, 'GET', `/api/v1/calls/${id}`)).status).toBe(404);
      expect((await as(buyerTeamMember.authToken, 'POST', `/api/v1/calls/${id}`, { buyer_converted: true })).status).toBe(404);
    }
  });

  it('sees and pauses only its own buyer; caps only when the company lets the team change them', async () => {
    const listed = await as(buyerTeamMember.authToken, 'GET', '/api/v1/buyers');
    expect(listed.status, listed.text).toBe(200);
    expect(listed.body.buyers.map((row: any) => row.id)).toEqual([teamBuyer.id]);
    expect(listed.body.metadata.total_count).toBe(1);
    expect((await as(buyerTeamMember.authToken, 'GET', `/api/v1/buyers/${otherBuyer.id}`)).status).toBe(404);
    expect((await as(buyerTeamMember.authToken, 'PUT', `/api/v1/buyers/${otherBuyer.id}`, { paused: true })).status).toBe(404);

    const paused = await as(buyerTeamMember.authToken, 'PUT', `/api/v1/buyers/${teamBuyer.id}`, { paused: true });
    expect(paused.status, paused.text).toBe(200);
    expect(paused.body.buyer.paused).toBe(true);
    const caps = await as(buyerTeamMember.authToken, 'PUT', `/api/v1/buyers/${teamBuyer.id}`, { concurrency_cap_limit: 9 });
    expect(caps.status).toBe(403);
    expect(caps.body.errors.base).toEqual(['needs the buyers update permission for the field concurrency_cap_limit']);
    expect((await as(buyerTeamMember.authToken, 'PUT', `/api/v1/buyers/${teamBuyer.id}`, { number: '+12125559999' })).status).toBe(403);
    expect((await asCompany('PUT', `/api/v1/buyers/${teamBuyer.id}`, { team_edit_caps: true, paused: false })).status).toBe(200);
    const allowed = await as(buyerTeamMember.authToken, 'PUT', `/api/v1/buyers/${teamBuyer.id}`, { concurrency_cap_limit: 9 });
    expect(allowed.status, allowed.text).toBe(200);
    expect(allowed.body.buyer.concurrency_cap_limit).toBe(9);
    // Deleting its buyer is a permission it lacks; offers are not there at all for it.
    expect((await as(buyerTeamMember.authToken, 'DELETE', `/api/v1/buyers/${teamBuyer.id}`)).status).toBe(403);
    expect((await as(buyerTeamMember.authToken, 'GET', '/api/v1/offers')).status).toBe(404);
  });

  it('loses everything when the company takes the team away', async () => {
    const member = await createMember(company.id, 'former');
    await asCompany('PUT', `/api/v1/buyers/${otherBuyer.id}`, { generate_team: true, team_users_emails: [member.email], team_offer_ids: [teamOffer.id] });
    expect((await as(member.authToken, 'GET', `/api/v1/buyers/${otherBuyer.id}`)).status).toBe(200);
    await asCompany('PUT', `/api/v1/buyers/${otherBuyer.id}`, { generate_team: false });
    expect((await as(member.authToken, 'GET', `/api/v1/buyers/${otherBuyer.id}`)).status).toBe(403);
  });
});

describe('team permissions', () => {
  it('are the union of the teams that list the member, and show in list total_count', async () => {
    const member = await memberWith(gateway, company, { offers: { actions: ['list'] } }, 'union');
    expect((await as(member.authToken, 'GET', `/api/v1/offers/${teamOffer.id}`)).status).toBe(403);
    await createThrough(gateway, company, '/api/v1/access_control_lists', { name: 'Readers', users_emails: [member.email.toUpperCase()], permissions: { offers: { actions: ['show'] } } });
    expect((await as(member.authToken, 'GET', `/api/v1/offers/${teamOffer.id}`)).status).toBe(200);
    const listed = await as(member.authToken, 'GET', '/api/v1/offers');
    expect(listed.status).toBe(200);
    expect(listed.body.metadata.total_count).toBe((await asCompany('GET', '/api/v1/offers')).body.metadata.total_count);
  });

  it('are checked against the permission groups and writable fields', async () => {
    const reply = await asCompany('POST', '/api/v1/access_control_lists', { name: 'Bad', permissions: { rockets: { actions: ['list'] }, calls: { actions: ['fly'], fields: ['status'] } } });
    expect(reply.status).toBe(422);
    expect(reply.body.errors.permissions).toEqual(['rockets is not a permission group', 'calls.actions must be a list of list, show, create, update, delete', 'calls.fields: status is not a writable field']);
  });

  it('limit what a member may write to the fields given', async () => {
    const member = await memberWith(gateway, company, { offers: { actions: ['create', 'update'], fields: ['name'] } }, 'namer');
    const created = await as(member.authToken, 'POST', '/api/v1/offers', { name: 'By a member' });
    expect(created.status, created.text).toBe(200);
    const refused = await as(member.authToken, 'POST', '/api/v1/offers', { name: 'With buyers', buyer_ids: [teamBuyer.id] });
    expect(refused.status).toBe(403);
    expect(refused.body.errors.base).toEqual(['needs the offers create permission for the field buyer_ids']);
    // The change log records which user made the change, as for admins.
    const logs = await asCompany('GET', `/api/v1/change_logs?item_type=offers&item_id=${created.body.offer.id}`);
    expect(logs.status, logs.text).toBe(200);
    expect(logs.body.change_logs.map((row: any) => ({ event: row.event, user_id: row.user_id, auth_method: row.auth_method }))).toEqual([{ event: 'create', user_id: member.userId, auth_method: 'auth_token' }]);
  });
});

describe('token checks outside Basic auth', () => {
  it('lets a lead submission unblock_contact only with a user who may update leads', async () => {
    const schedule = await createThrough(gateway, company, '/api/v1/schedules', { name: 'Unblock', offer_id: teamOffer.id });
    const caller = newCaller();
    expect((await asCompany('POST', `/api/v1/contacts/${encodeURIComponent(caller)}/caller_block`)).status).toBe(200);
    const submit = (token: string) => call(gateway, { method: 'POST', path: `/api/v1/leads?lead_token=${schedule.lead_token}&caller_id=${encodeURIComponent(caller)}&unblock_contact=1&auth_token=${token}` });
    const reader = await memberWith(gateway, company, { leads: { actions: ['list', 'show'] } }, 'lead-reader');
    const refused = await submit(reader.authToken);
    expect(refused.status, refused.text).toBe(403);
    expect(refused.body.errors.base).toEqual(['needs the leads update permission']);
    const blacklist = async () => (await asCompany('GET', '/api/v1/contacts/suppression_list?per_page=500')).body.contacts.map((row: any) => row.caller_id);
    expect(await blacklist()).toContain(caller);
    const editor = await memberWith(gateway, company, { leads: { actions: ['update'] } }, 'lead-editor');
    const unblocked = await submit(editor.authToken);
    expect(unblocked.status, unblocked.text).toBe(200);
    expect(await blacklist()).not.toContain(caller);
  });

  it("lets a webhook that requires a user's auth_token be used only by users who may use its offer", async () => {
    const webhook = await createThrough(gateway, company, '/api/v1/inbound_webhooks', { vanity_uri: `perm-${Date.now()}`, offer_id: teamOffer.id, require_user_auth_token: true });
    const ping = (token: string) => call(gateway, { method: 'POST', path: `/api/v1/inbound_webhooks/ping/${webhook.vanity_uri}?caller_id=4155552671&auth_token=${token}` });
    const stranger = await memberWith(gateway, company, { leads: { actions: ['list'] } }, 'stranger');
    const refused = await ping(stranger.authToken);
    expect(refused.status, refused.text).toBe(403);
    expect(refused.body.success).toBe(false);
    const offerUser = await memberWith(gateway, company, { offers: { actions: ['show'] } }, 'offer-user');
    expect((await ping(offerUser.authToken)).status).toBe(200);
    // The team's buyer's team offers include it.
    expect((await ping(buyerTeamMember.authToken)).status).toBe(200);
  });
});
