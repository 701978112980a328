import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * `npm run smoke` against the service as `npm start` runs it (`npm start` itself, in its own
 * process, on a free port, with this run's DynamoDB Local), so the smoke test cannot rot: every
 * step must pass, the post and the call with a bought number, the event with a receiver. Last,
 * `npm start` is stopped as an operator stops it, and must take everything it started with it.
 */
const tsx = join(process.cwd(), 'node_modules', '.bin', 'tsx');
const dataDir = mkdtempSync(join(tmpdir(), 'smoke-'));
const keys = { public: `smoke${randomBytes(6).toString('hex')}`, private: randomBytes(18).toString('hex') };
let service: ChildProcess | undefined;
let apiUrl = '';

/** A free local port (for the receiver the smoke test serves). */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', () => done()));
  const { port } = server.address() as { port: number };
  await new Promise<void>((done) => server.close(() => done()));
  return port;
}

/** The environment of a child: this file's (its own queue, scheduler and number range), minus the test carrier token: `npm start` makes its own. */
function childEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir, ...extra };
  delete env.TWILIO_AUTH_TOKEN;
  return env;
}

beforeAll(async () => {
  service = spawn('npm', ['start'], {
    env: childEnv({ PORT: '0', HOST: '127.0.0.1', API_PUBLIC_KEY: keys.public, API_PRIVATE_KEY: keys.private, WEBHOOK_ALLOWED_CIDRS: '127.0.0.0/8' }),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  apiUrl = await new Promise<string>((resolve, reject) => {
    service!.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const listening = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(output);
      if (listening) resolve(listening[1]!);
    });
    service!.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    service!.once('exit', (code) => reject(new Error(`npm start exited ${code}: ${output}`)));
  });
});

afterAll(async () => {
  if (service && service.exitCode === null && service.signalCode === null) {
    const exited = new Promise((done) => service!.once('exit', done));
    service.kill('SIGTERM');
    await exited;
  }
  rmSync(dataDir, { recursive: true, force: true });
});

/** `npm run smoke -- <args>` against the service: its output and exit code. */
async function smoke(args: string[]): Promise<{ output: string; code: number | null }> {
  const run = spawn(tsx, ['shared/local/smoke-cli.ts', '--api-url', apiUrl, '--keys', `${keys.public}:${keys.private}`, ...args], { env: childEnv({}), stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  run.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  run.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const code = await new Promise<number | null>((done) => run.once('exit', done));
  return { output, code };
}

const authorization = () => `Basic ${Buffer.from(`${keys.public}:${keys.private}`).toString('base64')}`;

/** What the smoke test may leave behind: nothing but calls. */
async function leftovers(): Promise<Record<string, unknown[]>> {
  const found: Record<string, unknown[]> = {};
  for (const resource of ['buyers', 'offers', 'inbound_webhooks', 'phone_numbers', 'schedules', 'subscriptions', 'leads', 'secret_items']) {
    const listed = (await (await fetch(`${apiUrl}/api/v1/${resource}`, { headers: { authorization: authorization() } })).json()) as Record<string, unknown[]>;
    found[resource] = listed[resource]!;
  }
  return found;
}

const NOTHING_LEFT = { buyers: [], offers: [], inbound_webhooks: [], phone_numbers: [], schedules: [], subscriptions: [], leads: [], secret_items: [] };

describe('npm run smoke against npm start', () => {
  it('passes every step, with a bought number, the carrier token npm start saved and a receiver', async () => {
    const receiverUrl = `http://127.0.0.1:${await freePort()}/hook`;
    const { output, code } = await smoke(['--buy-number', '--receiver-url', receiverUrl]);
    const all = output.split('\n').filter((line) => /^(PASS|FAIL|SKIP) /.test(line));
    // The console is checked once the route table has it (skipped until then).
    const consoleLine = all.filter((line) => line.includes(' console answers '));
    expect(consoleLine).toHaveLength(1);
    expect(consoleLine[0]).toMatch(/^(PASS {2}console answers|SKIP {2}console answers \(0 ms\): no console in this version$)/);
    const lines = all.filter((line) => !line.includes(' console answers '));
    expect(lines.filter((line) => !line.startsWith('PASS')), output).toEqual([]);
    expect(lines.map((line) => /^PASS {2}(.*) \(\d+ ms\)/.exec(line)?.[1])).toEqual([
      'OpenAPI document answers',
      '/docs answers',
      'unknown route answers 404 with the envelope',
      'API keys accepted',
      'buyer and offer created',
      'inbound webhook created',
      'CORS preflight of the lead, ping and post routes',
      'tracking number bought for the offer',
      'partner ping finds the buyer',
      'partner post answers a number',
      'subscription to call_ended created',
      'call played through the voice webhooks: routed, answered, ended, converted',
      'call shows in the calls list and in reports',
      'call_ended delivered to the receiver, signed',
      'lead waits a minute as a scheduled step',
      'secret item stored encrypted (KMS in AWS)',
      'smoke records deleted',
    ]);
    expect(output).toMatch(/PASSED: (17 passed, 0 failed, 1 skipped|18 passed, 0 failed, 0 skipped)/);
    expect(code).toBe(0);
    // Nothing secret printed.
    expect(output).not.toContain(keys.private);
    expect(output).not.toContain('whsec_');
    // Nothing left behind but the call (calls cannot be deleted).
    expect(await leftovers()).toEqual(NOTHING_LEFT);
  }, 180_000);

  it('fails on a step half-way (a wrong carrier token), skips what depends on it, still deletes its records and exits 1', async () => {
    const { output, code } = await smoke(['--buy-number', '--carrier-token', 'not-the-carrier-token']);
    expect(output).toMatch(/^FAIL {2}call played through the voice webhooks: routed, answered, ended, converted \(\d+ ms\): .*answered 403/m);
    expect(output).toMatch(/^SKIP {2}call shows in the calls list and in reports \(0 ms\): needs call played/m);
    expect(output).toMatch(/^PASS {2}lead waits a minute as a scheduled step/m);
    expect(output).toMatch(/^PASS {2}smoke records deleted \(\d+ ms\): 8 record\(s\)$/m);
    expect(output).toMatch(/^FAILED: \d+ passed, 1 failed, \d+ skipped$/m);
    expect(output).not.toContain('not-the-carrier-token');
    expect(code).toBe(1);
    expect(await leftovers()).toEqual(NOTHING_LEFT);
  }, 180_000);
});

/** Whether anything still listens at `url` (a refused connection: nothing). */
async function listening(url: string): Promise<boolean> {
  try {
    await fetch(url, { signal: AbortSignal.timeout(5000) });
    return true;
  } catch (error) {
    return !/ECONNREFUSED/.test(String((error as { cause?: unknown }).cause ?? error));
  }
}

describe('stopping npm start', () => {
  // It runs on this run's DynamoDB Local here; one it started itself is stopped in the same shutdown (main.ts).
  it('SIGTERM to npm stops the service', async () => {
    expect(await listening(`${apiUrl}/api/v1/openapi.json`)).toBe(true);
    const exited = new Promise<number | null>((done) => service!.once('exit', done));
    service!.kill('SIGTERM');
    await exited;
    // npm passes the signal on and exits; the service (exec'd, no shell in between that would
    // swallow it) shuts down on its own time: wait until its port refuses, or fail at the bound.
    let open = true;
    for (let tries = 0; open && tries < 120; tries++) {
      open = await listening(apiUrl);
      if (open) await new Promise((done) => setTimeout(done, 250));
    }
    expect(open).toBe(false);
  }, 60_000);
});
