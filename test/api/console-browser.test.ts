import { randomUUID } from 'node:crypto';
import { mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { telephonyPort } from '../../shared/adapters/index.js';
import type { CallControlRecorder } from '../../shared/adapters/local/call-control-recorder.js';
import { simulateCall } from '../../shared/local/call-simulator.js';
import { twilioSignature } from '../../shared/voice/twilio-signature.js';
import { chromiumPath, skipWithoutChromium } from '../fixtures/chromium.js';
import { midDayTomorrow, usePinnedClockForAll } from '../fixtures/clock.js';
import { createTestCompany, createTestUser, type TestCompany } from '../fixtures/company.js';
import { deliverQueued, useReceiver } from '../fixtures/events.js';
import { call, useGateway } from '../fixtures/gateway.js';
import { createThrough } from '../fixtures/records.js';
import { submitted } from '../fixtures/leads.js';
import { enterSchedule, scheduleWith } from '../fixtures/schedules.js';
import { clock } from '../../shared/adapters/clock.js';
import { newCallSid, offerWithBuyers, showBuyer } from '../fixtures/voice.js';

/**
 * The operator console (`/app`, docs/console.md) in headless Chromium, driven by Playwright's
 * library with the system's Chromium, against the local gateway this file starts: one browser,
 * one page and one service for every scenario, in order. Each view is checked with axe-core (no
 * serious or critical violations) and, with CONSOLE_SCREENSHOTS=1, photographed into docs/console/.
 */
process.env.WEBHOOK_ALLOWED_CIDRS = '127.0.0.0/8';

const skip = skipWithoutChromium('console-browser.test.ts');
const gateway = useGateway();
const receiver = useReceiver();
// Counters are per hour and day: pinned mid-day so the daily cap and the day's report hold at any hour.
usePinnedClockForAll(midDayTomorrow);

const TOKEN = process.env.TWILIO_AUTH_TOKEN!;
const SCREENSHOTS = process.env.CONSOLE_SCREENSHOTS === '1';
const SCREENSHOT_DIR = fileURLToPath(new URL('../../docs/console/', import.meta.url));
const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

interface World {
  company: TestCompany;
  other: TestCompany;
  capped: Record<string, any>;
  second: Record<string, any>;
  number: string;
  completedCallId: number;
  target: string;
  otherOffer: Record<string, any>;
  leadId: number;
  vanity: string;
}

let world: World;
let browser: Browser;
let page: Page;
const problems: string[] = [];

async function buildWorld(): Promise<World> {
  const company = await createTestCompany('console', 'Asia/Tokyo');
  const other = await createTestCompany('console-other');
  // The first buyer takes one call a day: after the simulated call it is at its daily cap, and
  // the live call goes to the second.
  const { buyers, number, offer } = await offerWithBuyers(
    gateway,
    company,
    [
      { name: 'Acme East', attempt_daily_limit: 1, concurrency_cap_limit: 3, current_conversion_revenue: 25, current_conversion_duration: 10 },
      { name: 'Acme West', attempt_hourly_limit: 50, concurrency_cap_limit: 5 },
    ],
    { buyerNumber: (index) => `+1212555${String(100 + index).padStart(4, '0')}`, offerName: 'Home insurance' },
  );
  // A schedule lead waiting at its first action.
  const wait = { action_type: 'wait', action_wait_type: 'days', wait_days: 1 };
  const { schedule } = await scheduleWith(gateway, company, { name: 'Follow-up' }, [{ name: 'First wait', ...wait }, { name: 'Second wait', ...wait }]);
  const lead = await enterSchedule(company.id, schedule, clock().now(), { caller_id: '+14155550303' });
  const vanity = `console-${randomUUID().slice(0, 8)}`;
  await createThrough(gateway, company, '/api/v1/inbound_webhooks', { vanity_uri: vanity, offer_id: offer.id });
  const otherOffer = await createThrough(gateway, company, '/api/v1/offers', { name: 'Auto insurance', buyer_ids: [buyers[1]!.id] });
  const target = `${receiver.url}?console=${randomUUID()}`;
  await createThrough(gateway, company, '/api/v1/subscriptions', { target_url: target, event: 'call_ended' });
  receiver.answer(500);
  const result = await simulateCall({ baseUrl: gateway.baseUrl, authToken: TOKEN, from: '+14155550101', to: number, buyers: [{ answer: true, answerAfter: 2, talk: 60 }], callSid: newCallSid() });
  expect(result.outcome).toBe('completed');
  await deliverQueued();
  // Another company with data of its own, none of which the first company's keys may see, and vice versa.
  await offerWithBuyers(gateway, other, [{ name: 'Other Co Buyer' }], { buyerNumber: () => '+12125550999', offerName: 'Other offer' });
  return { company, other, capped: buyers[0]!, second: buyers[1]!, number, completedCallId: result.callId!, target, otherOffer, leadId: lead.id, vanity };
}

/** The carrier's first webhook only: the call rings its buyer until `endLiveCall`. */
async function startLiveCall(to: string, from: string): Promise<string> {
  const callSid = newCallSid();
  await carrier('incoming', { CallSid: callSid, AccountSid: 'ACtest', From: from, To: to, Direction: 'inbound', CallStatus: 'ringing' });
  return callSid;
}

async function endLiveCall(callSid: string, to: string, from: string): Promise<void> {
  await carrier('status', { CallSid: callSid, AccountSid: 'ACtest', From: from, To: to, Direction: 'inbound', CallStatus: 'completed', CallDuration: '20' });
}

async function carrier(step: string, fields: Record<string, string>): Promise<void> {
  const url = `${gateway.baseUrl}/api/v1/voice/twilio/${step}`;
  const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-twilio-signature': twilioSignature(TOKEN, url, fields) }, body: new URLSearchParams(fields).toString() });
  expect(response.status, await response.text()).toBe(200);
}

async function open(view: string): Promise<void> {
  await page.goto(`${gateway.baseUrl}/app#/${view}`);
}

async function signIn(company: TestCompany): Promise<void> {
  await page.goto(`${gateway.baseUrl}/app`);
  await page.getByLabel('Public key').fill(company.keyPair.publicKey);
  await page.getByLabel('Private key').fill(company.keyPair.privateKey);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('navigation', { name: 'Views' }).waitFor();
}

async function signOut(): Promise<void> {
  await page.getByRole('button', { name: 'Sign out' }).click();
  await page.getByLabel('Public key').waitFor();
}

/** axe-core over the page as it is: no serious or critical violations (run through the driver, so the page's CSP does not apply to it). */
async function expectAccessible(label: string): Promise<void> {
  await page.evaluate(AXE_SOURCE);
  const violations = await page.evaluate(async () => {
    const result = await (globalThis as any).axe.run((globalThis as any).document, { resultTypes: ['violations'] });
    return result.violations.map((violation: any) => ({ id: violation.id, impact: violation.impact, nodes: violation.nodes.map((node: any) => node.target.join(' ')).slice(0, 3) }));
  });
  expect(violations.filter((violation: any) => violation.impact === 'serious' || violation.impact === 'critical'), `${label}: ${JSON.stringify(violations)}`).toEqual([]);
}

async function screenshot(name: string): Promise<void> {
  if (!SCREENSHOTS) return;
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  await page.screenshot({ path: path.join(SCREENSHOT_DIR, `${name}.png`), fullPage: false });
}

// A slow, shared machine: each step waits for what it expects (Playwright's 20 s), within the test's 60 s.
describe.skipIf(skip)('the operator console in headless Chromium', { timeout: 60_000 }, () => {
  beforeAll(async () => {
    world = await buildWorld();
    browser = await chromium.launch({ executablePath: chromiumPath, args: ['--no-sandbox', '--disable-gpu'] });
    // A zone other than UTC, so the tests see the views send the operator's zone with their dates.
    page = await browser.newPage({ viewport: { width: 1100, height: 720 }, timezoneId: 'America/Chicago' });
    page.setDefaultTimeout(20_000);
    page.on('console', (message) => {
      if (/Content Security Policy|Refused to/.test(message.text())) problems.push(message.text());
    });
    page.on('pageerror', (error) => problems.push(String(error)));
    // Nothing outside this service: any other host would be a fetch from the internet.
    page.on('request', (request) => {
      if (!request.url().startsWith(gateway.baseUrl) && !request.url().startsWith('blob:') && !request.url().startsWith('data:')) problems.push(`request to ${request.url()}`);
    });
  });
  afterAll(async () => browser?.close());

  it('serves the console at /app, and / leads there', async () => {
    const root = await fetch(`${gateway.baseUrl}/`, { redirect: 'manual' });
    expect(root.status).toBe(302);
    expect(root.headers.get('location')).toBe('/app');
    const html = await (await fetch(`${gateway.baseUrl}/app`)).text();
    const script = /\/app\/assets\/(console-[0-9a-f]{16}\.js)/.exec(html)?.[1];
    expect(script).toBeDefined();
    const asset = await fetch(`${gateway.baseUrl}/app/assets/${script}`, { headers: { 'accept-encoding': 'gzip' } });
    expect(asset.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect((await fetch(`${gateway.baseUrl}/app/assets/console-0000000000000000.js`)).status).toBe(404);
  });

  it('shows the API\'s error for a wrong key pair, and stays on the sign-in form', async () => {
    await page.goto(`${gateway.baseUrl}/app`);
    await page.getByLabel('Public key').fill(world.company.keyPair.publicKey);
    await page.getByLabel('Private key').fill('not-the-private-key');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('alert').waitFor();
    expect(await page.getByRole('alert').textContent()).toContain('Missing or invalid credentials');
    expect(await page.evaluate('sessionStorage.length')).toBe(0);
    await expectAccessible('sign-in');
    await screenshot('sign-in');
  });

  it('signs in with the key pair, keeps it in sessionStorage only, and shows every view in the navigation', async () => {
    await signIn(world.company);
    const links = await page.getByRole('navigation', { name: 'Views' }).getByRole('link').allTextContents();
    expect(links).toEqual(['Live calls', 'Calls', 'Buyers', 'Offers', 'Numbers', 'Leads', 'Reports', 'Webhooks']);
    expect(await page.evaluate('[localStorage.length, sessionStorage.length, document.cookie]')).toEqual([0, 1, '']);
    // The keyboard alone: Tab to the Buyers link, Enter opens the view and puts the focus on its heading.
    for (let presses = 0; presses < 15 && (await page.evaluate('document.activeElement?.textContent')) !== 'Buyers'; presses++) await page.keyboard.press('Tab');
    await page.keyboard.press('Enter');
    await expect.poll(() => page.evaluate("document.activeElement?.tagName + ' ' + document.activeElement?.textContent"), { timeout: 20_000 }).toBe('H1 Buyers');
  });

  it('lists the simulated call in Calls with its buyer, and shows its timeline', async () => {
    // The list is asked for in the company's zone (GET /company), not the page's (America/Chicago).
    const listed = page.waitForRequest((request) => request.url().includes('/api/v1/calls?'));
    await open('calls');
    expect(new URL((await listed).url()).searchParams.get('time_zone')).toBe('Asia/Tokyo');
    const row = page.locator(`tr[data-call-id="${world.completedCallId}"]`);
    await row.waitFor();
    expect(await row.locator('td.buyer').textContent()).toBe('Acme East');
    await expectAccessible('calls');
    await screenshot('calls');
    await row.getByRole('link').click();
    await page.locator('ol.timeline li').nth(3).waitFor();
    expect(await page.locator('ol.timeline').textContent()).toContain('answered');
    await expectAccessible('call detail');
  });

  it('shows a ringing call in Live calls and drops it once it ends', async () => {
    await open('live');
    await page.getByText('No calls in progress.').waitFor();
    const caller = '+14155550202';
    const callSid = await startLiveCall(world.number, caller);
    const row = page.locator('tbody tr', { hasText: caller });
    await row.waitFor();
    expect(await row.textContent()).toContain('Acme West');
    expect(await row.textContent()).toContain('Ringing');
    await expectAccessible('live calls');
    await screenshot('live-calls');
    // Hang up asks the carrier to end the call; it leaves the list when the carrier says it ended.
    await row.getByRole('button', { name: `Hang up the call from ${caller}` }).click();
    await expect.poll(() => (telephonyPort() as CallControlRecorder).hungUp.includes(callSid), { timeout: 30_000 }).toBe(true);
    await endLiveCall(callSid, world.number, caller);
    await row.waitFor({ state: 'detached' });
  });

  it('shows a buyer at its daily cap with a full bar, and pauses a buyer through the API', async () => {
    await open('buyers');
    const daily = page.locator(`[data-buyer-id="${world.capped.id}"] [data-cap="attempt_daily"]`);
    await daily.waitFor();
    expect(await daily.getAttribute('data-full')).toBe('true');
    expect(await daily.getAttribute('aria-valuenow')).toBe(await daily.getAttribute('aria-valuemax'));
    expect(await daily.locator('.fill').evaluate((fill) => (fill as unknown as { style: { width: string } }).style.width)).toBe('100%');
    await expectAccessible('buyers');
    await screenshot('buyers');
    await page.getByRole('button', { name: 'Pause Acme West' }).click();
    await page.getByRole('button', { name: 'Unpause Acme West' }).waitFor();
    expect((await showBuyer(gateway, world.company, world.second.id)).paused).toBe(true);
    // A partner's ping now finds nobody: the card says why each buyer was left out.
    const ping = await fetch(`${gateway.baseUrl}/api/v1/inbound_webhooks/ping/${world.vanity}?caller_id=4155550404`, { method: 'POST' });
    expect(ping.status).toBe(200);
    await page.reload();
    const reasons = page.locator(`[data-buyer-id="${world.second.id}"] details`);
    await reasons.waitFor();
    await reasons.locator('summary').click();
    expect(await reasons.textContent()).toContain('paused');
  });

  it('shows offers with their buyers and numbers, and the numbers with their offer', async () => {
    // A slow answer: the view says it is loading until the offers come (the test holds them, no timer).
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route('**/api/v1/offers?*', async (route) => {
      await held;
      await route.continue();
    });
    await open('offers');
    await page.getByRole('status').filter({ hasText: 'Loading offers' }).waitFor();
    release();
    const row = page.locator('tbody tr', { hasText: 'Home insurance' });
    await row.waitFor();
    await page.unroute('**/api/v1/offers?*');
    expect(await row.textContent()).toContain('Acme East, Acme West');
    expect(await row.textContent()).toContain(world.number);
    await expectAccessible('offers');
    await screenshot('offers');
    await open('numbers');
    await page.getByRole('combobox', { name: `Offer of ${world.number}` }).waitFor();
    await expectAccessible('numbers');
    await screenshot('numbers');
    // Buy a number for the first offer, then point it at the other one.
    await page.getByRole('button', { name: 'Buy a number' }).click();
    await page.locator('tbody tr').nth(1).waitFor();
    const [bought] = (await call(gateway, { path: '/api/v1/phone_numbers?order=id&order_dir=desc&per_page=1', authorization: world.company.authorization })).body.phone_numbers;
    expect(bought.number).not.toBe(world.number);
    await page.getByRole('combobox', { name: `Offer of ${bought.number}` }).selectOption({ label: 'Auto insurance' });
    await expect.poll(async () => (await call(gateway, { path: `/api/v1/phone_numbers/${bought.id}`, authorization: world.company.authorization })).body.phone_number.offer_id, { timeout: 30_000 }).toBe(world.otherOffer.id);
  });

  it('draws the day\'s calls and leads in Reports', async () => {
    // A lead through the API (the world's schedule lead is stored directly, without report counts).
    await submitted(gateway, { query: { lead_token: world.otherOffer.lead_token, caller_id: '+14155550505' } });
    await open('reports');
    const chart = page.locator('[data-chart="calls"]');
    await chart.locator('canvas').waitFor();
    expect(Number(await chart.getAttribute('data-points'))).toBeGreaterThanOrEqual(1);
    // The lead, over time from leads/stats.
    const leadChart = page.locator('[data-chart="leads"]');
    await leadChart.locator('canvas').waitFor();
    expect(Number(await leadChart.getAttribute('data-points'))).toBeGreaterThanOrEqual(1);
    const byBuyer = page.getByRole('table', { name: 'buyer' });
    await byBuyer.getByText('Acme East').waitFor();
    await expectAccessible('reports');
    await screenshot('reports');
    // A range the API refuses: its errors are shown as it words them.
    await page.getByLabel('From').fill('2020-01-01');
    await page.getByLabel('To').fill('2022-01-01');
    const asked = page.waitForRequest((request) => request.url().includes('/api/v1/leads/stats?'));
    await page.getByRole('button', { name: 'Show' }).click();
    expect(Object.fromEntries(new URL((await asked).url()).searchParams)).toMatchObject({ created_at_from: '2020-01-01 00:00:00', time_zone: 'Asia/Tokyo' });
    await page.getByRole('alert').first().waitFor();
    expect(await page.getByRole('alert').first().textContent()).toMatch(/Error 422.*created_at/);
    await expectAccessible('reports error');
  });

  it('shows the failing subscription\'s failed delivery in Webhooks', async () => {
    await open('webhooks');
    const failed = page.locator('tr.delivery[data-outcome="failed"]', { hasText: world.target });
    await failed.waitFor();
    expect(await failed.textContent()).toContain('500');
    await expectAccessible('webhooks');
    await screenshot('webhooks');
  });

  it("shows a schedule lead with its next action, and opts it out through the API", async () => {
    await open('leads');
    const row = page.locator('tbody tr', { hasText: '+14155550303' });
    await row.waitFor();
    expect(await row.textContent()).toContain('Follow-up');
    await expectAccessible('leads');
    await screenshot('leads');
    await row.getByRole('link').click();
    const next = page.locator('li.action.next');
    await next.waitFor();
    expect(await next.textContent()).toContain('First wait');
    expect(await page.locator('li.action.to-come').textContent()).toContain('Second wait');
    await expectAccessible('lead detail');
    await page.getByRole('button', { name: 'Opt out' }).click();
    await page.getByRole('button', { name: 'Opt out' }).waitFor({ state: 'detached' });
    const shown = await call(gateway, { path: `/api/v1/leads/${world.leadId}`, authorization: world.company.authorization });
    expect(shown.body.lead.status).toBe('opted_out');
  });

  it('returns to the sign-in form when the API answers 401', async () => {
    await page.evaluate(`sessionStorage.setItem('console.credentials', ${JSON.stringify(JSON.stringify({ kind: 'keys', publicKey: 'revoked', privateKey: 'revoked' }))})`);
    await open('calls');
    await page.getByLabel('Public key').waitFor();
    expect(await page.evaluate('sessionStorage.length')).toBe(0);
  });

  it("shows another company's keys none of the first company's data", async () => {
    await signIn(world.other);
    for (const [view, own] of [['calls', 'No calls match.'], ['live', 'No calls in progress.'], ['webhooks', 'No subscriptions.'], ['leads', 'No leads match.']] as const) {
      await open(view);
      await page.getByText(own).waitFor();
    }
    await open('buyers');
    await page.getByRole('heading', { name: 'Other Co Buyer' }).waitFor();
    await open('offers');
    await page.locator('tbody tr', { hasText: 'Other offer' }).waitFor();
    await open('reports');
    await page.getByText('No calls in this range to chart.').waitFor();
    const text = await page.locator('body').textContent();
    for (const theirs of ['Acme East', 'Acme West', 'Home insurance', 'Follow-up', world.number]) expect(text).not.toContain(theirs);
    await signOut();
  });

  it("signs in with a user's auth token instead of a key pair", async () => {
    const user = await createTestUser(world.company.id);
    await page.goto(`${gateway.baseUrl}/app`);
    await page.getByRole('button', { name: "Use a user's auth token instead" }).click();
    await page.getByLabel('Auth token').fill(user.authToken);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('navigation', { name: 'Views' }).waitFor();
    await open('buyers');
    await page.getByRole('heading', { name: 'Acme East' }).waitFor();
  });

  it('loaded nothing from elsewhere and broke no content security rule', () => {
    expect(problems).toEqual([]);
  });
});
