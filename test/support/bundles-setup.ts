import { mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { buildLocalBundles } from '../../lib/local/bundles.ts';

/**
 * The `bundled` project: every Lambda built once (lib/build.ts, as CDK ships it); the gateway then serves the bundles.
 * Built in the background, not awaited here: the run's other files start meanwhile (the sequencer puts this project's
 * after the integration files: test/support/sequencer.ts) and this project's files wait for `bundlesBuilt`, a file
 * that says "ok" or why the build failed (test/support/setup-bundles.ts).
 */
export default function setup(project: TestProject) {
  const root = mkdtempSync(join(tmpdir(), 'agora-bundles-'));
  const dir = join(root, 'lambdas');
  const built = join(root, 'built');
  const say = (text: string) => {
    // Written whole, then renamed: a reader never sees half of it.
    writeFileSync(`${built}.part`, text);
    renameSync(`${built}.part`, built);
  };
  const building = buildLocalBundles(dir).then(
    () => say('ok'),
    (error: unknown) => say(error instanceof Error ? (error.stack ?? error.message) : String(error)),
  );
  project.provide('bundlesDir', dir);
  project.provide('bundlesBuilt', built);
  return async () => {
    await building;
    rmSync(root, { recursive: true, force: true });
  };
}

declare module 'vitest' {
  export interface ProvidedContext {
    bundlesDir: string;
    bundlesBuilt: string;
  }
}
