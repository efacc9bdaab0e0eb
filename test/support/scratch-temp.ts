import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * Every project's first global setup: the run's own temporary folder. What the tests write to "the temp folder" (the
 * CDK app's `cdk.out*` of every synthesis, the walkthroughs' `mktemp -d`, browser profiles, the CLIs' scratch
 * folders, DynamoDB Local's native library, the test files' uploads) lands in one folder under the OS's, made here
 * and removed when the run ends, whatever each test did or failed to clean up: TMPDIR names it, so the test workers,
 * what they spawn (bash, the CLIs, Chromium) and DynamoDB Local's JVM (`java.io.tmpdir`, from it) all use it. Shared by
 * the projects of one run: the first setup makes it, the last teardown removes it
 * (test/integration/temp-folders.test.ts runs vitest and finds the temp folder it was given as empty as before).
 */
const RUN = Symbol.for('agora.test.scratch-temp');
type Run = { dir: string; users: number; systemTemp: string | undefined };
const state = globalThis as { [RUN]?: Run };

export default function setup() {
  if (!state[RUN]) {
    const systemTemp = process.env.TMPDIR;
    state[RUN] = { dir: mkdtempSync(join(tmpdir(), 'agora-test-run-')), users: 0, systemTemp };
    process.env.TMPDIR = state[RUN].dir;
  }
  const run = state[RUN];
  run.users++;
  return () => {
    if (--run.users > 0) return;
    rmSync(run.dir, { recursive: true, force: true });
    if (run.systemTemp === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = run.systemTemp;
    delete state[RUN];
  };
}
