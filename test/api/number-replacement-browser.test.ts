import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { numberFormats } from '../../shared/numbers/number-lookup.js';
import { chromiumPath } from '../fixtures/chromium.js';
import { createTestCompany } from '../fixtures/company.js';
import { useGateway } from '../fixtures/gateway.js';
import { createThrough } from '../fixtures/records.js';

/**
 * The hosted service's official number-replacement script (trackdrive-optimizer.js,
 * docs/compatibility.md "Number replacement script"), loaded UNCHANGED by a landing page on another
 * origin whose options point its numbers endpoint at this deployment: the page must show this
 * deployment's number in place of its default one.
 *
 * The script is published only on GitHub and the hosted service's site, without a licence, so it
 * is neither kept in this repository nor reachable from CI (which reaches only the npm registry).
 * This test runs when NUMBER_REPLACEMENT_SCRIPT names a copy of its built file
 * (dist/trackdrive-optimizer.js of the Trackdrive/trackdrive-js repository) and Chromium is
 * installed, and is skipped otherwise; test/api/number-lookup.test.ts replays its request in
 * every run.
 */
const scriptPath = process.env.NUMBER_REPLACEMENT_SCRIPT;
const skip = !scriptPath || !chromiumPath;
if (skip) console.warn('number-replacement-browser.test.ts: skipped (set NUMBER_REPLACEMENT_SCRIPT to the built trackdrive-optimizer.js; needs chromium)');

const gateway = useGateway();

/** The landing page, as the script's own basic example has it: its default number, the script, and the options naming this deployment. */
function landingPage(offerToken: string, numbersUrl: string): string {
  return `<!doctype html><html><head><meta charset="utf-8"><title>Landing</title>
<script src="/trackdrive-optimizer.js"></script>
<script>
  Trackdrive.Optimizer.replace_all({ offer_token: ${JSON.stringify(offerToken)}, endpoints: { numbers: ${JSON.stringify(numbersUrl)} } }, [
    ['(866) 338-7600', 'human_number'],
    ['+18663387600', 'plain_number'],
  ]);
</script></head>
<body><p id="shown">(866) 338-7600 is a great telephone number.</p><p><a id="link" href="tel:+18663387600">+18663387600</a></p></body></html>`;
}

describe.skipIf(skip)('the official number-replacement script in headless Chromium', { timeout: 60_000 }, () => {
  let browser: Browser;
  let page: Server;
  let pageUrl = '';
  let expected: ReturnType<typeof numberFormats>;

  beforeAll(async () => {
    const company = await createTestCompany('number-script');
    const offer = await createThrough(gateway, company, '/api/v1/offers', { name: 'Landing offer' });
    const number = await createThrough(gateway, company, '/api/v1/phone_numbers', { offer_id: offer.id });
    expected = numberFormats(number.number as string);
    const script = readFileSync(scriptPath!);
    const html = landingPage(offer.offer_token as string, `${gateway.baseUrl}/api/v1/numbers.json`);
    // Another origin than the API's (another port), as a landing page is.
    page = createServer((request, response) => {
      if (request.url === '/trackdrive-optimizer.js') response.writeHead(200, { 'content-type': 'application/javascript' }).end(script);
      else response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(html);
    });
    await new Promise<void>((resolve) => page.listen(0, '127.0.0.1', resolve));
    pageUrl = `http://127.0.0.1:${(page.address() as AddressInfo).port}/landing?utm_source=google`;
    browser = await chromium.launch({ executablePath: chromiumPath, args: ['--no-sandbox', '--disable-gpu'] });
  });

  afterAll(async () => {
    await browser?.close();
    await new Promise((resolve) => page?.close(resolve));
  });

  it("replaces the page's number and its tel: link with this deployment's number", async () => {
    const tab = await browser.newPage();
    try {
      await tab.goto(pageUrl);
      await tab.waitForFunction((human) => (globalThis as unknown as { document: { getElementById(id: string): { textContent: string | null } | null } }).document.getElementById('shown')?.textContent?.includes(human), expected.human_number);
      expect(await tab.textContent('#shown')).toContain(expected.human_number);
      expect(await tab.textContent('#link')).toBe(expected.plain_number);
      expect(await tab.getAttribute('#link', 'href')).toBe(`tel:${expected.plain_number}`);
    } finally {
      await tab.close();
    }
  });
});
