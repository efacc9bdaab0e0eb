import { defineConfig } from 'vitest/config';

// `npx vitest run --config bench/room/vitest.config.ts`: the auction room under load (bench/room/room-load.ts), on the
// integration tests' service (one DynamoDB Local, the local gateway in process). It measures and prints, never asserts.
export default defineConfig({
  test: {
    include: ['bench/room/room-load.ts'],
    globalSetup: ['test/support/global-setup.ts'],
    setupFiles: ['test/support/setup-env.ts'],
    testTimeout: 600_000,
    hookTimeout: 60_000,
  },
});
