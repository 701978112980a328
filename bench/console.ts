/**
 * Operator console speed (issue 31), printed, not asserted:
 *
 *   npx tsx bench/console.ts        (or: npm run bench:console; CALLS=10000 LIVE=500 by default)
 *
 * Starts its own DynamoDB Local in memory, the local gateway (as `npm start` serves it) and the
 * system's headless Chromium through playwright-core, then measures:
 * - first view: from navigation to `/app` (cold cache, credentials already in sessionStorage) to
 *   the Live calls table on screen, and the console script's size gzipped;
 * - Live calls with LIVE calls in progress: the first render, then each 2-second refresh from its
 *   request's start to the DOM change it causes (PerformanceObserver + MutationObserver in the page);
 * - Calls paging through CALLS calls: each "Next page" click to the next rows on screen (first 20
 *   pages in the browser), the API requests and rows per click, and a whole cursor walk of the list
 *   through the API (requests, rows per request, time).
 * Times depend on the machine and on what else runs on it.
 */
import { gzipSync } from 'node:zlib';
import { percentile, printTable, runWithDynamoDbLocal } from './support.js';

const CALLS = Number(process.env.CALLS ?? 10_000);
const LIVE = Number(process.env.LIVE ?? 500);
const REFRESHES = 5;
const PAGES_IN_BROWSER = 20;

await runWithDynamoDbLocal({ tableName: 'call-tracking-bench-console', timeoutSeconds: 900 }, run);

async function run(): Promise<void> {
  const { db, tableName } = await import('../shared/db/client.js');
  const { ensureTable } = await import('../shared/local/table-setup.js');
  const { addApiKey, ensureCompany } = await import('../shared/db/companies.js');
  const { createCall } = await import('../shared/calls/call-store.js');
  const { callRecordAt } = await import('../test/fixtures/call-records.js');
  const { createGateway, listen } = await import('../shared/local/gateway.js');
  const { buildConsole } = await import('../functions/docs/console-build.js');
  const { chromiumPath } = await import('../test/fixtures/chromium.js');
  const { chromium } = await import('playwright-core');
  if (!chromiumPath) throw new Error('chromium is not installed (apt-get install -y chromium)');

  await ensureTable(db, tableName);
  const company = await ensureCompany('console-bench');
  const keys = await addApiKey(company.id);
  const now = Date.now();

  // Finished calls over the last 10 days, then the calls in progress (newest), 16 writes at a time.
  const started = performance.now();
  const seed = async (count: number, fields: (index: number) => Record<string, unknown>) => {
    for (let index = 0; index < count; index += 16) {
      await Promise.all(Array.from({ length: Math.min(16, count - index) }, (_, offset) => createCall(company.id, callRecordAt(now - 60_000 - (index + offset) * 60_000, fields(index + offset)))));
    }
  };
  await seed(CALLS, (index) => ({ caller_number: `+1415555${String(index % 10_000).padStart(4, '0')}`, revenue: index % 7 }));
  await seed(LIVE, (index) => ({ in_progress: true, status: 'ringing', ended_at: null, buyer: `Buyer ${index % 20}`, offer: 'Bench offer', caller_number: `+1628555${String(index).padStart(4, '0')}` }));
  console.log(`seeded ${CALLS} finished and ${LIVE} live calls in ${((performance.now() - started) / 1000).toFixed(1)} s`);

  const server = createGateway();
  const port = await listen(server, 0);
  const base = `http://127.0.0.1:${port}`;
  const { script } = await buildConsole();
  const browser = await chromium.launch({ executablePath: chromiumPath, args: ['--no-sandbox', '--disable-gpu'] });
  try {
    const credentials = JSON.stringify({ kind: 'keys', publicKey: keys.publicKey, privateKey: keys.privateKey });
    const signedInPage = async () => {
      const context = await browser.newContext({ viewport: { width: 1200, height: 800 } });
      await context.addInitScript(`sessionStorage.setItem('console.credentials', ${JSON.stringify(credentials)})`);
      return context.newPage();
    };
    // Warm the server's build (the first request for /app builds the console under npm start).
    await fetch(`${base}/app`);

    // First view, cold browser cache each run.
    const firstView: number[] = [];
    const liveFirst: number[] = [];
    for (let run = 0; run < 3; run++) {
      const page = await signedInPage();
      const t0 = performance.now();
      await page.goto(`${base}/app#/live`);
      await page.getByRole('heading', { name: 'Live calls' }).waitFor();
      firstView.push(performance.now() - t0);
      await page.locator('tbody tr').nth(LIVE - 1).waitFor();
      liveFirst.push(performance.now() - t0);
      await page.context().close();
    }

    // Live calls refreshes: request start → the DOM change it causes.
    const page = await signedInPage();
    await page.goto(`${base}/app#/live`);
    await page.locator('tbody tr').nth(LIVE - 1).waitFor();
    const refreshes = (await page.evaluate(`new Promise((done) => {
      const requests = [];
      const mutations = [];
      new PerformanceObserver((list) => { for (const entry of list.getEntries()) if (entry.name.includes('/calls/live_calls')) requests.push({ start: entry.startTime, end: entry.responseEnd }); }).observe({ type: 'resource' });
      new MutationObserver(() => mutations.push(performance.now())).observe(document.querySelector('main'), { subtree: true, childList: true, characterData: true, attributes: true });
      const check = setInterval(() => {
        if (requests.length < ${REFRESHES}) return;
        clearInterval(check);
        done(requests.map((request) => {
          const rendered = mutations.find((at) => at >= request.end);
          return { total: (rendered ?? NaN) - request.start, render: (rendered ?? NaN) - request.end };
        }));
      }, 100);
    })`)) as Array<{ total: number; render: number }>;

    // Calls paging in the browser: each click to the next page's rows.
    await page.goto(`${base}/app#/calls`);
    await page.locator('tbody tr').nth(24).waitFor();
    const clicks: number[] = [];
    const requestsPerClick: number[] = [];
    for (let index = 0; index < PAGES_IN_BROWSER; index++) {
      const first = await page.locator('tbody tr').first().getAttribute('data-call-id');
      let requests = 0;
      const count = (request: { url(): string }) => {
        if (request.url().includes('/api/v1/calls?')) requests++;
      };
      page.on('request', count);
      const t0 = performance.now();
      await page.getByRole('button', { name: 'Next page' }).click();
      await page.locator(`tbody tr[data-call-id="${first}"]`).waitFor({ state: 'detached' });
      await page.locator('tbody tr').first().waitFor();
      clicks.push(performance.now() - t0);
      page.off('request', count);
      requestsPerClick.push(requests);
    }

    // The whole list by the API's cursor, as the console pages it (25 a request).
    let cursor: string = '-1';
    let pages = 0;
    let rows = 0;
    let largest = 0;
    const authorization = `Basic ${Buffer.from(`${keys.publicKey}:${keys.privateKey}`).toString('base64')}`;
    const walkStart = performance.now();
    while (cursor !== '0') {
      const reply = (await (await fetch(`${base}/api/v1/calls?per_page=25&cursor=${encodeURIComponent(cursor)}&created_at_from=${encodeURIComponent(new Date(now - 30 * 86_400_000).toISOString())}`, { headers: { authorization } })).json()) as { calls: unknown[]; metadata: { next_cursor: string | number } };
      pages++;
      rows += reply.calls.length;
      largest = Math.max(largest, reply.calls.length);
      cursor = String(reply.metadata.next_cursor);
    }
    const walkMs = performance.now() - walkStart;

    const ms = (values: number[]) => [percentile(values, 50).toFixed(0), percentile(values, 95).toFixed(0), Math.max(...values).toFixed(0)];
    printTable('Operator console (ms; median, p95, max)', ['measure', 'p50', 'p95', 'max', 'note'], [
      ['first view: Live calls heading on screen', ...ms(firstView), `cold cache; script ${(script.text.length / 1024).toFixed(0)} KB, ${(gzipSync(script.text).length / 1024).toFixed(1)} KB gzipped`],
      [`Live calls: ${LIVE} rows on screen`, ...ms(liveFirst), 'from navigation'],
      ['Live calls refresh: request to DOM', ...ms(refreshes.map((entry) => entry.total)), `${refreshes.length} refreshes of ${LIVE} calls`],
      ['Live calls refresh: answer to DOM', ...ms(refreshes.map((entry) => entry.render)), 'render only'],
      ['Calls: Next page click to rows', ...ms(clicks), `${PAGES_IN_BROWSER} pages; /calls requests per click: ${[...new Set(requestsPerClick)].join(', ')}`],
    ]);
    console.log(`\nCursor walk of ${CALLS} calls through the API: ${pages} requests, ${rows} rows, at most ${largest} rows a request, ${(walkMs / 1000).toFixed(1)} s (${(walkMs / pages).toFixed(0)} ms a page)`);
  } finally {
    await browser.close();
    server.closeAllConnections();
    server.close();
  }
}
