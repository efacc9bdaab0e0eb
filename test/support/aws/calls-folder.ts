import { mkdirSync, rmSync } from 'node:fs';
import { callsFolder } from './calls.ts';

/**
 * Global setup of the projects that record and check AWS calls: the run's folder (vitest.config.ts names it) exists
 * from the start and is removed when the whole run ends, after the `aws` project has read it; unless
 * AGORA_AWS_CALLS_KEEP is set (`npm run verify:aws -- --record` keeps it to print the report).
 */
export default function setup() {
  const folder = callsFolder();
  if (!folder) return;
  mkdirSync(folder, { recursive: true });
  return () => {
    if (!process.env.AGORA_AWS_CALLS_KEEP) rmSync(folder, { recursive: true, force: true });
  };
}
