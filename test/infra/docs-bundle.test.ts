import { execFile, execSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { build } from 'esbuild';
import { afterAll, describe, expect, it } from 'vitest';
import { esbuildOptions, lambdaBundleFile } from '../../infra/constructs/bundling-options.js';
import { docsAfterBundlingCommands } from '../../functions/docs/shipped-files.js';
import { openApiJson } from '../../functions/docs/document.js';
import { buildConsole } from '../../functions/docs/console-build.js';
import { buildApiEvent } from '../../shared/local/lambda-event.js';
import { routes } from '../../shared/http/routes.js';

/**
 * The docs function as Lambda runs it: bundled with the stack's esbuild options, the shipped files
 * copied beside the bundle as the stack's afterBundling hook copies them, imported by a Node
 * process with AWS_LAMBDA_FUNCTION_NAME set as the Lambda runtime sets it. It must serve the page
 * and the renderer's script from its asset directory, the same bytes npm installed, and the
 * operator console with its script as the hook built it. The directory
 * is under the repository so the AWS SDK, external as Lambda's runtime provides it, resolves from
 * node_modules; nothing else is external.
 */
const repoRoot = fileURLToPath(new URL('../../', import.meta.url));
const outDir = mkdtempSync(path.join(repoRoot, '.bundle-test-'));
afterAll(() => rmSync(outDir, { recursive: true, force: true }));

const eventFor = (key: string, pathParameters: Record<string, string>) => {
  const route = routes.find((candidate) => `${candidate.method} ${candidate.path}` === key)!;
  const url = route.path.replace(/\{(\w+)\}/g, (_match, name: string) => pathParameters[name]!);
  return buildApiEvent({ method: route.method, url, headers: { host: 'bundle.test', 'accept-encoding': 'identity' }, body: Buffer.alloc(0), sourceIp: '127.0.0.1' }, route, pathParameters);
};

/** Runs in the child: the page, then the renderer script it names, through the bundled handler. */
const CHILD = `
const { handler } = await import(process.argv[1]);
const context = { awsRequestId: 'bundle-test', functionName: 'docs', getRemainingTimeInMillis: () => 10000 };
const page = await handler(JSON.parse(process.env.PAGE_EVENT), context);
const name = /\\/docs\\/assets\\/(scalar-[0-9a-f]+\\.js)/.exec(page.body)[1];
const event = JSON.parse(process.env.ASSET_EVENT);
event.pathParameters = { name };
event.rawPath = '/docs/assets/' + name;
const asset = await handler(event, context);
const openapi = await handler(JSON.parse(process.env.OPENAPI_EVENT), context);
const consolePage = await handler(JSON.parse(process.env.CONSOLE_EVENT), context);
const consoleName = /\\/app\\/assets\\/(console-[0-9a-f]+\\.js)/.exec(consolePage.body)[1];
const consoleEvent = JSON.parse(process.env.CONSOLE_ASSET_EVENT);
consoleEvent.pathParameters = { name: consoleName };
consoleEvent.rawPath = '/app/assets/' + consoleName;
const consoleAsset = await handler(consoleEvent, context);
const { createHash } = await import('node:crypto');
const sha = (text) => createHash('sha256').update(text).digest('hex');
console.log(JSON.stringify({ page: page.statusCode, status: asset.statusCode, type: asset.headers['content-type'], sha256: sha(asset.body), openapi: openapi.statusCode, openapiSha256: sha(openapi.body), console: consolePage.statusCode, consoleScript: consoleName, consoleType: consoleAsset.headers['content-type'], consoleSha256: sha(consoleAsset.body) }));
`;

describe('the docs function bundle', () => {
  it('serves the renderer script, the OpenAPI document and the console shipped beside the bundle, not inside it', async () => {
    const outfile = path.join(outDir, lambdaBundleFile);
    await build({ ...esbuildOptions(path.join(repoRoot, 'functions/docs/handler.ts'), outfile), logLevel: 'silent' });
    // The commands the stack's afterBundling hook runs (inputDir: the repository, outputDir: the asset).
    for (const command of docsAfterBundlingCommands(repoRoot.replace(/\/$/, ''), outDir)) execSync(command);
    // The script alone is ~4.4 MB, the registry with its libraries ~600 KB: neither is in the bundle.
    expect(statSync(outfile).size).toBeLessThan(300 * 1024);
    const { stdout } = await promisify(execFile)(process.execPath, ['--input-type=module', '-e', CHILD, outfile], {
      cwd: outDir,
      timeout: 60_000,
      maxBuffer: 16 * 1024 * 1024,
      env: {
        PATH: process.env.PATH,
        AWS_LAMBDA_FUNCTION_NAME: 'docs',
        TABLE_NAME: 'bundle-test',
        PAGE_EVENT: JSON.stringify(eventFor('GET /docs', {})),
        ASSET_EVENT: JSON.stringify(eventFor('GET /docs/assets/{name}', { name: 'placeholder' })),
        OPENAPI_EVENT: JSON.stringify(eventFor('GET /api/v1/openapi.json', {})),
        CONSOLE_EVENT: JSON.stringify(eventFor('GET /app', {})),
        CONSOLE_ASSET_EVENT: JSON.stringify(eventFor('GET /app/assets/{name}', { name: 'placeholder' })),
      },
    });
    // The console is built from shared/console/ by the hook, not bundled: the same bytes as a build here.
    const { script } = await buildConsole();
    const installed = readFileSync(path.join(repoRoot, 'node_modules/@scalar/api-reference/dist/browser/standalone.js'));
    expect(JSON.parse(stdout.trim().split('\n').at(-1)!)).toEqual({
      page: 200,
      status: 200,
      type: 'text/javascript; charset=utf-8',
      sha256: createHash('sha256').update(installed).digest('hex'),
      openapi: 200,
      openapiSha256: createHash('sha256').update(openApiJson()).digest('hex'),
      console: 200,
      consoleScript: script.name,
      consoleType: 'text/javascript; charset=utf-8',
      consoleSha256: createHash('sha256').update(script.text).digest('hex'),
    });
  }, 120_000);
});
