import { type ChildProcess, spawn } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/**
 * `npm start`'s server (bin/serve.ts under tsx) on `port` over the given DynamoDB Local, bots off (the bench runs them
 * on demand through /_local/bots), its logs in Lambda's JSON format, under `--cpu-prof` when `profileDir` is given; resolves once it serves.
 */
export async function startServer(options: {
  port: number;
  dynamoEndpoint: string;
  table: string;
  profileDir?: string;
  env?: Record<string, string>;
}): Promise<ChildProcess> {
  const profile = options.profileDir ? ['--cpu-prof', `--cpu-prof-dir=${options.profileDir}`] : [];
  const server = spawn(process.execPath, [...profile, '--import', 'tsx', 'bin/serve.ts'], {
    cwd: ROOT,
    env: {
      ...process.env,
      PORT: String(options.port),
      DYNAMODB_ENDPOINT: options.dynamoEndpoint,
      TABLE_NAME: options.table,
      BOTS_INTERVAL_MS: '3600000',
      // The log lines as Lambda writes them: `npm start`'s human format parses each line again (lib/local/log-format.ts).
      LOG_FORMAT: 'json',
      ...options.env,
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  await new Promise<void>((ok) => {
    const serving = (c: Buffer) => {
      if (!c.toString().includes('serving on')) return;
      // From here the lines are drained unread: reading each one would cost the bench process's CPU (autocannon's).
      server.stdout!.off('data', serving).resume();
      if (process.env.BENCH_SERVER_LOG) server.stdout!.pipe(createWriteStream(process.env.BENCH_SERVER_LOG));
      ok();
    };
    server.stdout!.on('data', serving);
  });
  return server;
}

/** A frame of a V8 `.cpuprofile`. */
export interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string };
  children?: number[];
}

/**
 * Where a frame's code lives: one of our folders (`depth` levels of it: `functions/room`, or `functions/room/room.ts`
 * with 2), an npm package (the SDK's as one), a Node internal, or a native call.
 */
export function placeOf({ functionName, url }: ProfileNode['callFrame'], depth: 1 | 2 = 1): string {
  if (!url) return functionName === '(garbage collector)' ? 'GC' : `native ${functionName}`;
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url)?.[1];
  if (pkg) return pkg.replace(/^(@smithy|@aws-sdk)\/.*/, '$1/*');
  if (url.startsWith('node:'))
    return url
      .replace(/^node:(internal\/)?/, 'node:')
      .split('/')
      .slice(0, 2)
      .join('/');
  const ours =
    depth === 1
      ? /\/(functions\/[^/]+|lib\/[^/]+|bin)\//.exec(url)?.[1]
      : /\/(functions\/[^/]+\/[^/]+|lib\/[^/]+\/[^/]+|bin)/.exec(url)?.[1];
  return ours ?? url;
}
