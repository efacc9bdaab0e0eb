import { inject } from 'vitest';

// The local gateway of this project serves the built bundles instead of the TypeScript sources (lib/local/gateway.ts).
process.env.AGORA_BUNDLES = inject('bundlesDir');
