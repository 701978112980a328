import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { openApiDocument } from '../../functions/docs/document.js';
import { routeGroups } from '../../shared/http/routes.js';
import { chromiumPath, skipWithoutChromium } from '../fixtures/chromium.js';
import { useGateway } from '../fixtures/gateway.js';

/**
 * The reference page in a real browser: headless Chromium loads `/docs` from the local gateway,
 * runs the renderer the service serves, and the DOM it leaves shows the API's route groups and
 * operations. Chromium comes from the system (Debian's `chromium`; .ci/run installs it). Without
 * it the test is skipped on a developer's machine and fails in CI.
 */
const gateway = useGateway();

const browser = chromiumPath;
const skip = skipWithoutChromium('docs-browser.test.ts');

const profile = mkdtempSync(path.join(tmpdir(), 'apidoc-chromium-'));
afterAll(() => rmSync(profile, { recursive: true, force: true }));

const escapeHtml = (text: string) => text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');

describe.skipIf(skip)('the reference page in headless Chromium', () => {
  it('renders the route groups and the operations of the first one, loading nothing from elsewhere', async () => {
    if (!browser) throw new Error('chromium is not installed: CI must install it (.ci/run)');
    const { stdout: dom, stderr: log } = await promisify(execFile)(
      browser,
      [
        '--headless',
        '--disable-gpu',
        '--no-sandbox',
        `--user-data-dir=${profile}`,
        // Virtual time: the page's scripts run to quiet, however fast the machine.
        '--virtual-time-budget=15000',
        '--enable-logging=stderr',
        '--v=0',
        '--dump-dom',
        `${gateway.baseUrl}/docs`,
      ],
      { timeout: 90_000, maxBuffer: 64 * 1024 * 1024 },
    );
    const document = openApiDocument();
    expect(dom).toContain((document.info as { title: string }).title);
    for (const group of Object.keys(routeGroups)) expect(dom, `route group ${group} in the sidebar`).toContain(`href="#tag/${group}"`);
    const [firstGroup] = Object.keys(routeGroups);
    const summaries = Object.values(document.paths).flatMap((methods) => Object.values(methods)).filter((operation) => operation.tags[0] === firstGroup).map((operation) => operation.summary);
    expect(summaries.length).toBeGreaterThan(5);
    for (const summary of summaries) expect(dom, summary).toContain(`>${escapeHtml(summary)}<`);
    expect(dom).toContain('/api/v1/subscriptions/{id}');
    // The page's policy allows this origin only: a request elsewhere would be logged as refused.
    expect(log).not.toMatch(/Refused to|Content Security Policy/);
  }, 120_000);
});
