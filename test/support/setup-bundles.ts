import { existsSync, readFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { inject } from 'vitest';

// The Lambdas are built while other files run (test/support/bundles-setup.ts): wait until they are, or fail with why.
const built = inject('bundlesBuilt');
for (const deadline = Date.now() + 10 * 60_000; !existsSync(built); await sleep(200))
  if (Date.now() > deadline) throw new Error('The Lambda bundles were not built within 10 minutes');
const said = readFileSync(built, 'utf8');
if (said !== 'ok') throw new Error(`The Lambda bundles did not build:\n${said}`);

// The local gateway of this project serves the built bundles instead of the TypeScript sources (lib/local/gateway.ts).
process.env.AGORA_BUNDLES = inject('bundlesDir');
