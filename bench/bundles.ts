/**
 * Lambda bundles: the size of each function's bundle and how long its module takes to initialise.
 *
 *   npx tsx bench/bundles.ts        (or: npm run bench:bundles)
 *
 * For each route group (`functions/<group>/handler.ts`), the fallback and the functions that serve
 * no route (delivery, outbox, lead runner, sweeper) it builds the entry with the project's esbuild
 * and the options the CDK stack bundles with (infra/constructs/bundling-options.ts, shared with
 * function-defaults.ts), with a metafile, into `.bench-bundles/` under the repository: the AWS SDK
 * is external (Lambda's runtime provides it), and the child importing a bundle finds it in the
 * repository's node_modules, as Lambda's runtime finds its own. The same run builds and times a
 * baseline: a bundle holding only the DynamoDB document client (issue 12's floor). Per function it prints the bundle's size (bytes, KB, gzip), its source map's size,
 * the five input packages that put the most bytes into the bundle, and the cold import time:
 * a fresh `node` process (this machine's Node, not Lambda's) with the environment the stack gives
 * the function (placeholder values) imports the bundle and reports, from `performance.now()`, how
 * long the import took and how long after process start it finished; the parent also times the
 * whole process (spawn to exit). Median of 11 processes, as deployed (no NODE_OPTIONS: stack traces
 * are mapped on first use, shared/observability/source-mapped-stacks.ts) and, for comparison, with
 * NODE_OPTIONS=--enable-source-maps, which the functions used until 2026-11-28. The processes run in rounds (each round
 * imports every bundle and the baseline once), so a slow or fast spell of the machine falls on
 * all of them alike; the ratio to the baseline is the median of each round's ratio.
 *
 * What init leaves to the first request: route groups load each operation's modules on its first
 * call (shared/http/lazy-operation.ts). Each round also imports, per function, a second bundle of
 * the same entry that also exports `loadOneOperation` and `loadEveryOperation`, and times after the
 * import one route's modules (a cold start's first request; another route each round), then every
 * route's.
 *
 * No network: the child blocks socket connects and DNS lookups and reports any attempt (the
 * script fails if there is one). The build directory is removed at the end.
 *
 * Goals printed, never asserted: bundle <= 400 KB (issue 32; was 300) and init <= 1.3x the
 * DynamoDB-client-only baseline's (the old init <= 50 ms goal is withdrawn: the client alone is above it).
 */
import { build, type Metafile } from 'esbuild';
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { gzipSync } from 'node:zlib';
import { BUNDLE_GOAL_KB, esbuildOptions, lambdaBundleFile, nodeSourceMapsOption } from '../infra/constructs/bundling-options.js';
import { type RouteGroup, type RouteGroupDefinition, routeGroups } from '../shared/http/route-groups.js';
import { printTable } from './support.js';

const RUNS = 11;
const TOP_PACKAGES = 5;
const CHILD_TIMEOUT_MS = 20_000;
const TOTAL_TIMEOUT_S = 360;

/** Issue 13's goals per bundle, and issue 12's (own code, init as a ratio of the DynamoDB-only baseline). */
const GOAL = { bundleKb: BUNDLE_GOAL_KB, initRatio: 1.3 } as const;

const repoRoot = fileURLToPath(new URL('../', import.meta.url));

const watchdog = setTimeout(() => {
  console.error(`bench: gave up after ${TOTAL_TIMEOUT_S} s`);
  process.exit(1);
}, TOTAL_TIMEOUT_S * 1000);
watchdog.unref();

interface FunctionUnderTest {
  name: string;
  entry: string;
  /** The environment infra/constructs/api.ts gives the function, with placeholder values. */
  environment: Record<string, string>;
}

/** Mirrors infra/constructs/api.ts: TABLE_NAME and Powertools' settings for route groups, and each port's settings. */
function functionEnvironment(group: RouteGroup | 'fallback'): Record<string, string> {
  if (group === 'fallback') return {};
  const definition: RouteGroupDefinition = routeGroups[group];
  return portEnvironment(definition);
}

/** The environment the stack gives a function using these ports (placeholder values). */
function portEnvironment(definition: { ports?: readonly string[] }): Record<string, string> {
  const ports: readonly string[] = definition.ports ?? [];
  const env: Record<string, string> = { TABLE_NAME: 'call-tracking-bench', POWERTOOLS_SERVICE_NAME: 'call-tracking', POWERTOOLS_METRICS_NAMESPACE: 'CallTracking' };
  if (ports.includes('email')) Object.assign(env, { EMAIL_ADAPTER: 'ses', EMAIL_FROM: 'bench@example.invalid' });
  // transcription: the API's job starters copy carrier recordings (the settle function does not need them; unused at init either way).
  if (ports.includes('numbers') || ports.includes('telephony') || ports.includes('carrier') || ports.includes('transcription')) {
    // The token itself is read from Secrets Manager on first use, never at init.
    Object.assign(env, { TWILIO_ACCOUNT_SID: 'ACbench', TWILIO_AUTH_TOKEN_SECRET: 'call-tracking/twilio-auth-token' });
  }
  if (ports.includes('numbers')) Object.assign(env, { NUMBER_PROVIDER: 'twilio', VOICE_WEBHOOK_BASE: 'https://bench.invalid/api/v1/voice/twilio' });
  if (ports.includes('telephony')) env.TELEPHONY_ADAPTER = 'twilio';
  if (ports.includes('events')) Object.assign(env, { EVENTS_ADAPTER: 'sqs', EVENTS_QUEUE_URL: 'https://sqs.us-east-1.amazonaws.com/000000000000/bench' });
  if (ports.includes('scheduler')) {
    Object.assign(env, { SCHEDULER_ADAPTER: 'aws', LEAD_SCHEDULE_GROUP: 'bench', LEAD_RUNNER_ARN: 'arn:aws:lambda:us-east-1:000000000000:function:bench', LEAD_SCHEDULER_ROLE_ARN: 'arn:aws:iam::000000000000:role/bench' });
    Object.assign(env, { LEAD_STEPS_QUEUE_URL: 'https://sqs.us-east-1.amazonaws.com/000000000000/steps', LEAD_RUNNER_DLQ_ARN: 'arn:aws:sqs:us-east-1:000000000000:dlq' });
  }
  if (ports.includes('storage') || ports.includes('objects') || ports.includes('object_reads')) Object.assign(env, { OBJECT_STORAGE_ADAPTER: 's3', OBJECT_STORAGE_BUCKET: 'bench' });
  if (ports.includes('transcription')) Object.assign(env, { TRANSCRIPTION_ADAPTER: 'aws', TRANSCRIPTS_BUCKET: 'bench', TRANSCRIPTION_JOB_PREFIX: 'calltracking-bench' });
  return env;
}

/** What the Lambda runtime sets for every function (credentials are placeholders: init must not use them). */
function lambdaEnvironment(fn: FunctionUnderTest, taskRoot: string, nodeMaps: boolean): Record<string, string> {
  return {
    PATH: '/usr/local/bin:/usr/bin:/bin',
    LANG: 'en_US.UTF-8',
    TZ: ':UTC',
    LAMBDA_TASK_ROOT: taskRoot,
    AWS_REGION: 'us-east-1',
    AWS_DEFAULT_REGION: 'us-east-1',
    AWS_EXECUTION_ENV: 'AWS_Lambda_nodejs22.x',
    AWS_LAMBDA_FUNCTION_NAME: `bench-${fn.name}`,
    AWS_LAMBDA_FUNCTION_VERSION: '$LATEST',
    AWS_LAMBDA_FUNCTION_MEMORY_SIZE: '512',
    AWS_ACCESS_KEY_ID: 'AKIABENCH',
    AWS_SECRET_ACCESS_KEY: 'bench',
    AWS_SESSION_TOKEN: 'bench',
    AWS_EC2_METADATA_DISABLED: 'true',
    ...fn.environment,
    ...(nodeMaps ? { NODE_OPTIONS: nodeSourceMapsOption } : {}),
  };
}

const RESULT_MARK = 'BENCH_RESULT ';

/**
 * Run by the child (`node --input-type=module -e`, bundle URL as its argument): blocks the
 * network, imports the bundle, prints the times from performance.now() (milliseconds since the
 * process started) and exits, whatever timers or sockets the module may have left open.
 */
const CHILD_SCRIPT = `
const net = (await import('node:net')).default;
const dns = (await import('node:dns')).default;
const attempts = [];
const block = (what) => function (...args) {
  // net.connect passes the socket its normalized arguments as an array.
  const target = Array.isArray(args[0]) ? args[0][0] : args[0];
  attempts.push(what + ' ' + (typeof target === 'object' && target ? JSON.stringify({ host: target.host, port: target.port, path: target.path }) : String(target)));
  throw new Error('bench: network access blocked (' + what + ')');
};
net.Socket.prototype.connect = block('connect');
dns.lookup = block('dns.lookup');
dns.resolve = block('dns.resolve');
dns.promises.lookup = block('dns.promises.lookup');
const importStart = performance.now();
const mod = await import(process.argv[1]);
const importEnd = performance.now();
if (typeof mod.handler !== 'function') throw new Error('the bundle exports no handler function');
let loadAllMs, loadOneMs;
if (mod.loadOneOperation) {
  // One route's modules first (a cold start's first request): a different route each round, spread over them all.
  const oneStart = performance.now();
  await mod.loadOneOperation(Number(process.argv[2]));
  loadOneMs = performance.now() - oneStart;
}
if (mod.loadEveryOperation) {
  const loadStart = performance.now();
  await mod.loadEveryOperation();
  loadAllMs = performance.now() - loadStart + (loadOneMs ?? 0);
}
process.stdout.write('\\n${RESULT_MARK}' + JSON.stringify({ importStart, importEnd, loadAllMs, loadOneMs, attempts }) + '\\n');
process.exit(0);
`;

interface InitRun {
  /** Milliseconds the import took, inside the child. */
  importMs: number;
  /** Milliseconds from the child's process start to the import completing. */
  sinceStartMs: number;
  /** Milliseconds from spawn to exit, measured by this process. */
  processMs: number;
  /** Milliseconds loading every route's modules took after the import (the first-use bundle only). */
  loadAllMs?: number;
  /** Milliseconds loading one route's modules took, first after the import (the first-use bundle only). */
  loadOneMs?: number;
}

function initOnce(fn: FunctionUnderTest, bundle: string, nodeMaps: boolean, round = 0): InitRun {
  const started = process.hrtime.bigint();
  const child = spawnSync(process.execPath, ['--input-type=module', '-e', CHILD_SCRIPT, pathToFileURL(bundle).href, String(round / RUNS)], {
    cwd: path.dirname(bundle),
    env: lambdaEnvironment(fn, path.dirname(bundle), nodeMaps),
    encoding: 'utf8',
    timeout: CHILD_TIMEOUT_MS,
  });
  const processMs = Number(process.hrtime.bigint() - started) / 1e6;
  const line = child.stdout?.split('\n').find((candidate) => candidate.startsWith(RESULT_MARK));
  if (child.status !== 0 || !line) {
    throw new Error(`${fn.name}: the child failed (status ${child.status}, signal ${child.signal})\n${child.stderr}\n${child.stdout}`);
  }
  const result = JSON.parse(line.slice(RESULT_MARK.length)) as { importStart: number; importEnd: number; loadAllMs?: number; loadOneMs?: number; attempts: string[] };
  if (result.attempts.length) throw new Error(`${fn.name}: module init tried the network: ${result.attempts.join('; ')}`);
  return {
    importMs: result.importEnd - result.importStart,
    sinceStartMs: result.importEnd,
    processMs,
    ...(result.loadAllMs === undefined ? {} : { loadAllMs: result.loadAllMs }),
    ...(result.loadOneMs === undefined ? {} : { loadOneMs: result.loadOneMs }),
  };
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

/** The package an input file belongs to (the last node_modules segment), or `(project)` for the service's own code. */
function packageOf(input: string): string {
  const parts = input.split('/');
  const at = parts.lastIndexOf('node_modules');
  if (at < 0) return '(project)';
  const name = parts[at + 1] ?? '?';
  return name.startsWith('@') ? `${name}/${parts[at + 2] ?? '?'}` : name;
}

/** Packages published with the AWS SDK for JavaScript v3 (clients, their Smithy runtime and helpers). */
function isAwsSdk(pkg: string): boolean {
  return /^@(aws-sdk|smithy|aws-crypto|aws)\//.test(pkg) || pkg === 'tslib' || pkg === 'fast-xml-parser' || pkg === 'strnum' || pkg === 'bowser';
}

const kb = (bytes: number) => (bytes / 1024).toFixed(1);
const ms = (value: number) => value.toFixed(1);

const workDir = path.join(repoRoot, '.bench-bundles');
const BASELINE = 'baseline (DynamoDB document client only)';

/** The functions the stack deploys (infra/constructs), with the ports each one's environment names. */
const functions: FunctionUnderTest[] = [
  ...(Object.keys(routeGroups) as RouteGroup[]).map((group) => ({ name: group, entry: `functions/${group}/handler.ts`, environment: functionEnvironment(group) })),
  { name: 'fallback', entry: 'functions/fallback/handler.ts', environment: functionEnvironment('fallback') },
  { name: 'delivery', entry: 'functions/delivery/handler.ts', environment: portEnvironment({ ports: ['events', 'email'] }) },
  { name: 'outbox', entry: 'functions/outbox/handler.ts', environment: portEnvironment({ ports: ['events'] }) },
  { name: 'lead-runner', entry: 'functions/lead-runner/handler.ts', environment: portEnvironment({ ports: ['events', 'telephony', 'scheduler', 'storage'] }) },
  { name: 'sweeper', entry: 'functions/sweeper/handler.ts', environment: portEnvironment({ ports: ['events'] }) },
  { name: 'transcription', entry: 'functions/transcription/handler.ts', environment: portEnvironment({ ports: ['events', 'transcription'] }) },
  // Issue 12's floor: what any function that reads the table must load.
  { name: BASELINE, entry: '.bench-bundles/baseline-entry.mjs', environment: portEnvironment({}) },
];

rmSync(workDir, { recursive: true, force: true });
mkdirSync(workDir, { recursive: true });
writeFileSync(
  path.join(workDir, 'baseline-entry.mjs'),
  [
    "import { DynamoDBClient } from '@aws-sdk/client-dynamodb';",
    "import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';",
    'const client = DynamoDBDocumentClient.from(new DynamoDBClient({}));',
    'export const handler = async () => client.config.region;',
  ].join('\n'),
);
try {
  console.log(`Lambda bundles: ${functions.length} functions, esbuild options from infra/constructs/bundling-options.ts; node ${process.version} on ${process.arch}.`);

  interface Built {
    fn: FunctionUnderTest;
    bundle: string;
    bytes: number;
    gzipBytes: number;
    mapBytes: number;
    packages: [string, number][];
    sdkBytes: number;
    /** AWS SDK packages the bundle imports from the runtime at init (static imports of externals), e.g. `@aws-sdk/client-dynamodb`. */
    externals: string[];
    /** The same entry, also exporting loadEveryOperation (not for the baseline). */
    firstUseBundle?: string;
  }
  const built: Built[] = [];
  const buildStarted = performance.now();
  for (const fn of functions) {
    const outfile = path.join(workDir, fn.name === BASELINE ? 'baseline' : fn.name, lambdaBundleFile);
    const result = await build({ ...esbuildOptions(path.join(repoRoot, fn.entry), outfile), absWorkingDir: repoRoot, metafile: true, logLevel: 'warning' });
    const metafile: Metafile = result.metafile!;
    const output = metafile.outputs[path.relative(repoRoot, outfile)];
    if (!output) throw new Error(`${fn.name}: no ${lambdaBundleFile} in the metafile`);
    const byPackage = new Map<string, number>();
    for (const [input, { bytesInOutput }] of Object.entries(output.inputs)) {
      byPackage.set(packageOf(input), (byPackage.get(packageOf(input)) ?? 0) + bytesInOutput);
    }
    const packages = [...byPackage].sort((a, b) => b[1] - a[1]);
    const code = readFileSync(outfile);
    let firstUseBundle: string | undefined;
    if (fn.name !== BASELINE) {
      const entry = path.join(workDir, `${fn.name}-first-use.mjs`);
      writeFileSync(entry, [`export { handler } from ${JSON.stringify(path.join(repoRoot, fn.entry))};`, `export { loadEveryOperation, loadOneOperation } from ${JSON.stringify(path.join(repoRoot, 'shared/http/lazy-operation.ts'))};`].join('\n'));
      firstUseBundle = path.join(workDir, `${fn.name}-first-use`, lambdaBundleFile);
      await build({ ...esbuildOptions(entry, firstUseBundle), absWorkingDir: repoRoot, logLevel: 'warning' });
    }
    built.push({
      fn,
      bundle: outfile,
      bytes: code.length,
      gzipBytes: gzipSync(code).length,
      mapBytes: statSync(`${outfile}.map`).size,
      packages,
      sdkBytes: packages.filter(([pkg]) => isAwsSdk(pkg)).reduce((sum, [, bytes]) => sum + bytes, 0),
      externals: [...new Set(output.imports.filter((imported) => imported.external && imported.kind !== 'dynamic-import' && imported.path.startsWith('@aws-sdk/')).map((imported) => imported.path))],
      ...(firstUseBundle ? { firstUseBundle } : {}),
    });
  }
  console.log(`Built in ${((performance.now() - buildStarted) / 1000).toFixed(1)} s.`);

  printTable(
    `Bundle sizes (${lambdaBundleFile}; gzip: node:zlib default level; SDK: @aws-sdk/*, @smithy/*, @aws-crypto/*, @aws/* and their helpers, share of the input bytes in the bundle)`,
    ['function', 'bytes', 'KB', 'gzip KB', 'map KB', 'SDK share', 'SDK clients loaded at init (bundled, or from the runtime)'],
    built.map((b) => [
      b.fn.name,
      String(b.bytes),
      kb(b.bytes),
      kb(b.gzipBytes),
      kb(b.mapBytes),
      `${((100 * b.sdkBytes) / b.packages.reduce((sum, [, bytes]) => sum + bytes, 0)).toFixed(0)}%`,
      [...new Set([...b.packages.map(([pkg]) => pkg), ...b.externals])]
        .filter((pkg) => pkg.startsWith('@aws-sdk/client-'))
        .map((pkg) => pkg.slice('@aws-sdk/client-'.length))
        .sort()
        .join(', '),
    ]),
  );

  printTable(
    `Largest input packages (KB in the bundle, from the metafile's bytesInOutput; top ${TOP_PACKAGES})`,
    ['function', ...Array.from({ length: TOP_PACKAGES }, (_, index) => `#${index + 1}`)],
    built.map((b) => [b.fn.name, ...b.packages.slice(0, TOP_PACKAGES).map(([pkg, bytes]) => `${pkg} ${kb(bytes)}`)]),
  );

  // One unmeasured process first, so the first function does not pay for a cold node binary.
  initOnce(built[0]!.fn, built[0]!.bundle, false);
  const initRows: string[][] = [];
  /** Median import time as deployed, per function. */
  const initMs = new Map<string, number>();
  const samples = new Map(built.map((b) => [b.fn.name, { deployed: [] as InitRun[], nodeMaps: [] as InitRun[], firstUse: [] as InitRun[] }]));
  for (let round = 0; round < RUNS; round += 1) {
    for (const b of built) {
      const sample = samples.get(b.fn.name)!;
      sample.deployed.push(initOnce(b.fn, b.bundle, false));
      sample.nodeMaps.push(initOnce(b.fn, b.bundle, true));
      if (b.firstUseBundle) sample.firstUse.push(initOnce(b.fn, b.firstUseBundle, false, round));
    }
  }
  for (const b of built) {
    const { deployed, nodeMaps } = samples.get(b.fn.name)!;
    initMs.set(b.fn.name, median(deployed.map((run) => run.importMs)));
    initRows.push([
      b.fn.name,
      ms(median(deployed.map((run) => run.importMs))),
      ms(median(deployed.map((run) => run.sinceStartMs))),
      ms(median(deployed.map((run) => run.processMs))),
      ms(median(nodeMaps.map((run) => run.importMs))),
      ms(median(nodeMaps.map((run) => run.sinceStartMs))),
    ]);
  }
  printTable(
    `Cold init (fresh node process per run, median of ${RUNS}; ms)`,
    ['function', 'import (as deployed)', 'start->imported', 'spawn->exit', `import (${nodeSourceMapsOption}, for comparison)`, 'start->imported'],
    initRows,
  );
  console.log('\nimport: performance.now() around the dynamic import() inside the child; start->imported: performance.now() when it completed (ms since the child process started); spawn->exit: process.hrtime in this process around the whole child.');

  const baselineMs = initMs.get(BASELINE)!;
  const rows = built.filter((b) => b.fn.name !== BASELINE).map((b) => {
    const ownBytes = b.bytes - b.sdkBytes;
    const init = initMs.get(b.fn.name)!;
    const baselineRuns = samples.get(BASELINE)!.deployed;
    const ratio = median(samples.get(b.fn.name)!.deployed.map((run, round) => run.importMs / baselineRuns[round]!.importMs));
    return { name: b.fn.name, kb: b.bytes / 1024, ownKb: ownBytes / 1024, init, ratio };
  });
  printTable(
    `Against the goals (bundle: ${lambdaBundleFile}; own code: bytes beyond the AWS SDK; init: median import as deployed (no NODE_OPTIONS); x baseline: median of the rounds' ratios; baseline ${BASELINE}: ${ms(baselineMs)} ms)`,
    ['function', 'bundle KB', 'goal', 'own KB', 'init ms', 'x baseline', 'goal'],
    rows.map((row) => [row.name, kb(row.kb * 1024), String(GOAL.bundleKb), kb(row.ownKb * 1024), ms(row.init), row.ratio.toFixed(2), String(GOAL.initRatio)]),
  );
  const baselineImports = samples.get(BASELINE)!.deployed;
  printTable(
    `Left to the first request (median of ${RUNS}, as deployed; ms): operations load their modules on first call; "one route" loads one route's first after the import (a cold start's first request; the route rotates with the round), "every route" loads them all (loadEveryOperation)`,
    ['function', 'init', 'one route', 'init + one route', 'x baseline', 'every route', 'init + every route', 'x baseline'],
    built
      .filter((b) => b.firstUseBundle)
      .map((b) => {
        const { firstUse } = samples.get(b.fn.name)!;
        const loadAll = firstUse.map((run) => run.loadAllMs ?? 0);
        return [
          b.fn.name,
          ms(median(firstUse.map((run) => run.importMs))),
          ms(median(firstUse.map((run) => run.loadOneMs ?? 0))),
          ms(median(firstUse.map((run) => run.importMs + (run.loadOneMs ?? 0)))),
          median(firstUse.map((run, round) => (run.importMs + (run.loadOneMs ?? 0)) / baselineImports[round]!.importMs)).toFixed(2),
          ms(median(loadAll)),
          ms(median(firstUse.map((run) => run.importMs + (run.loadAllMs ?? 0)))),
          median(firstUse.map((run, round) => (run.importMs + (run.loadAllMs ?? 0)) / baselineImports[round]!.importMs)).toFixed(2),
        ];
      }),
  );
  const names = (list: typeof rows) => (list.length ? list.map((row) => row.name).join(', ') : 'none');
  const meets = rows.filter((row) => row.kb <= GOAL.bundleKb && row.ratio <= GOAL.initRatio);
  console.log(`\nGoal (bundle <= ${GOAL.bundleKb} KB, init <= ${GOAL.initRatio}x baseline): ${meets.length}/${rows.length} meet it: ${names(meets)}; not: ${names(rows.filter((row) => !meets.includes(row)))}.`);
} finally {
  rmSync(workDir, { recursive: true, force: true });
  clearTimeout(watchdog);
}
