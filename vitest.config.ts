import { join } from 'node:path';
import { defineConfig } from 'vitest/config';
import { LongestFirst } from './test/support/sequencer.ts';

// The run's folder of recorded AWS calls (test/support/aws/): the integration workers write it, the `aws` project reads
// it after them, the global teardown removes it. Set here, in the main process, so every worker inherits the one name.
process.env.AGORA_AWS_CALLS ??= join(import.meta.dirname, '.agora', `aws-calls-${process.pid}`);

// Four projects: unit (pure domain, no network), infra (CDK Template assertions), integration (HTTP through the
// local gateway over one DynamoDB Local JVM) and bundled: the whole-sale walks and the docs page once more, served by
// the built Lambda bundles (lib/build.ts, what CDK ships) instead of the sources, so a bundling mistake fails here.
const BUNDLED = [
  'test/integration/auctions/landlease-walk.test.ts',
  'test/integration/auctions/dgf-insider-walk.test.ts',
  // An auction write is one bundle per auction type: each serves its type, and 404s the other's ids as the sources do.
  'test/integration/auctions/per-type-lambdas.test.ts',
  'test/integration/docs/docs-page.test.ts',
  // Lot and asset writes (land-parcel validators too) load their own validators from beside their bundles.
  'test/integration/lots/create-lot.test.ts',
  'test/integration/assets/create-asset.test.ts',
  'test/integration/assets/basic-schema-properties.test.ts',
];
// The run's own temporary folder (TMPDIR), removed when the run ends: tests leave nothing in the OS temp folder.
const SCRATCH_TEMP = 'test/support/scratch-temp.ts';
export default defineConfig({
  test: {
    // Two files at a time (vitest's default is one less than the cores: one here): most of an integration file's time
    // is waiting (a browser, a room's timers, a moved clock), so a second file uses the cores meanwhile.
    maxWorkers: 2,
    // The longest files first, integration's before the others' (test/support/sequencer.ts).
    sequence: { sequencer: LongestFirst },
    projects: [
      {
        test: {
          name: 'unit',
          include: ['test/unit/**/*.test.ts'],
          globalSetup: [SCRATCH_TEMP],
          // Files share their worker's modules (loaded and warmed once): each starts from the same environment.
          isolate: false,
          setupFiles: ['test/support/fresh-environment.ts', 'test/support/load-validators.ts'],
        },
      },
      {
        test: {
          name: 'infra',
          include: ['test/infra/**/*.test.ts'],
          globalSetup: [SCRATCH_TEMP],
          // A worker loads aws-cdk-lib once (seconds of CPU), not once per file: the files build their own apps.
          isolate: false,
          setupFiles: ['test/support/fresh-environment.ts'],
          // CloudFormation's template rules cost 6 s of CPU per synthesis: checked once, in cfn-validation.test.ts.
          env: { CDK_VALIDATION: 'false' },
          testTimeout: 60_000,
          hookTimeout: 120_000,
        },
      },
      {
        test: {
          name: 'integration',
          include: ['test/integration/**/*.test.ts'],
          globalSetup: [SCRATCH_TEMP, 'test/support/global-setup.ts', 'test/support/aws/calls-folder.ts'],
          // As unit: the handlers, the gateway and the SDK are loaded and warmed once per worker, not once per file
          // (a file's own table, gateway and clock are made afresh: test/support/service.ts).
          isolate: false,
          setupFiles: [
            'test/support/setup-env.ts',
            'test/support/fresh-environment.ts',
            'test/support/aws/record-calls.ts',
          ],
          testTimeout: 30_000,
          hookTimeout: 30_000,
        },
      },
      {
        test: {
          name: 'bundled',
          include: BUNDLED,
          globalSetup: [
            SCRATCH_TEMP,
            'test/support/global-setup.ts',
            'test/support/bundles-setup.ts',
            'test/support/aws/calls-folder.ts',
          ],
          setupFiles: [
            'test/support/setup-env.ts',
            'test/support/setup-bundles.ts',
            'test/support/aws/record-calls.ts',
          ],
          // Each route's first request loads its own bundle (a cold start per Lambda, as in AWS): walks take longer.
          testTimeout: 60_000,
          hookTimeout: 60_000,
        },
      },
      {
        test: {
          name: 'aws',
          include: ['test/aws/**/*.test.ts'],
          globalSetup: [SCRATCH_TEMP, 'test/support/aws/calls-folder.ts'],
          // After every other project: it checks the calls the integration projects recorded (IAM, test/aws/).
          sequence: { groupOrder: 1 },
          env: { CDK_VALIDATION: 'false' },
          testTimeout: 60_000,
        },
      },
    ],
  },
});
