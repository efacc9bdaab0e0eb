import { spawnSync } from 'node:child_process';
import { closeSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import { createServer } from 'node:net';

/**
 * `npm start`'s checks before it touches anything: the Node and Java versions, one `npm start` per `.agora` folder (a
 * lock file holding its pid), a free port. Each failure is one line that says what to do.
 */

/** `20.19.0` >= `20.19`? */
export function atLeast(version: string, minimum: string): boolean {
  const [a, b] = [version, minimum].map((v) => v.replace(/^v/, '').split('.').map(Number));
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    if ((a[i] ?? 0) !== (b[i] ?? 0)) return (a[i] ?? 0) > (b[i] ?? 0);
  }
  return true;
}

/** The minimum of package.json `engines.node` (`>=24`), checked against the running Node. */
export function nodeProblem(enginesNode: string | undefined, running = process.versions.node): string | undefined {
  const minimum = /(\d+(?:\.\d+)*)/.exec(enginesNode ?? '')?.[1];
  if (!minimum || atLeast(running, minimum)) return undefined;
  return `Node ${running} is too old: Agora needs Node ${enginesNode} (package.json engines). On Linux, npm ci installs it and npm scripts use it; elsewhere, nvm use reads .nvmrc.`;
}

/** The major version of `java -version` (`"17.0.15"` -> 17, `"1.8.0_392"` -> 8), undefined without Java. */
export function javaMajor(output: string): number | undefined {
  const version = /version "([^"]+)"/.exec(output)?.[1];
  if (!version) return undefined;
  const [first, second] = version.split(/[._-]/).map(Number);
  return first === 1 ? second : first;
}

export function javaProblem(minimum = 17): string | undefined {
  const run = spawnSync('java', ['-version'], { encoding: 'utf8' });
  if (run.error)
    return `Java ${minimum}+ is needed to run DynamoDB Local: \`java\` was not found on PATH (or point DYNAMODB_ENDPOINT at a running DynamoDB).`;
  const major = javaMajor(`${run.stderr}${run.stdout}`);
  if (major !== undefined && major < minimum)
    return `Java ${minimum}+ is needed to run DynamoDB Local: \`java\` on PATH is Java ${major}.`;
  return undefined;
}

/** Who listens on the TCP port (`ss`), as `node (pid 123)`; undefined when it cannot tell. */
export function portHolder(port: number): string | undefined {
  const run = spawnSync('ss', ['-Hltnp', `sport = :${port}`], { encoding: 'utf8' });
  const hit = /users:\(\("([^"]+)",pid=(\d+)/.exec(run.stdout ?? '');
  return hit ? `${programOf(Number(hit[2])) ?? hit[1]} (pid ${hit[2]})` : undefined;
}

/** The program a process runs (`node`, `java`), from its command line: `ss` names the thread, Node 24's `MainThread`. */
export function programOf(pid: number): string | undefined {
  try {
    const argv0 = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0')[0];
    return argv0 ? argv0.split('/').pop() : undefined;
  } catch {
    return undefined;
  }
}

/** Whether the port is free on the host: tried by listening on it a moment. */
export function portFree(port: number, host = '127.0.0.1'): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen(port, host, () => server.close(() => resolve(true)));
  });
}

/**
 * Whether a process runs. A zombie does not: one whose parent died is reaped by PID 1, and where PID 1 reaps nothing
 * (some containers' init) a killed orphan stays a zombie, which signal 0 still reaches (Linux: its /proc state `Z`).
 */
export const isAlive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
  try {
    return readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.[0] !== 'Z';
  } catch {
    return true; // no /proc (not Linux): signal 0 is all there is
  }
};

/**
 * Takes the lock file (`wx`: created only when absent). A lock of a dead process is stale and taken over. Returns the
 * release function, or the pid of the live holder.
 */
export function takeLock(file: string): { release: () => void } | { heldBy: number } {
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(file, 'wx');
      writeSync(fd, String(process.pid));
      closeSync(fd);
      return { release: () => rmSync(file, { force: true }) };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const pid = Number(readFileSync(file, 'utf8').trim());
      if (Number.isInteger(pid) && pid > 0 && pid !== process.pid && isAlive(pid)) return { heldBy: pid };
      rmSync(file, { force: true });
    }
  }
  throw new Error(`could not take ${file}`);
}
