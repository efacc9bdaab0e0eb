import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { buildLocalBundles } from '../../lib/local/bundles.ts';

/** The `bundled` project: every Lambda built once (lib/build.ts, as CDK ships it); the gateway then serves the bundles. */
export default async function setup(project: TestProject) {
  const dir = await buildLocalBundles(mkdtempSync(join(tmpdir(), 'agora-bundles-')));
  project.provide('bundlesDir', dir);
  return () => rmSync(dir, { recursive: true, force: true });
}

declare module 'vitest' {
  export interface ProvidedContext {
    bundlesDir: string;
  }
}
