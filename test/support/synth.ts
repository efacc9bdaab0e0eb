import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { App } from 'aws-cdk-lib';
import { buildApp } from '../../bin/agora.ts';

const ROOT = join(import.meta.dirname, '..', '..');

/**
 * What the CDK CLI (`npx cdk synth`) puts in the app's environment on a fresh clone with no AWS credentials and no
 * configured region: it falls back to us-east-1 and knows no account (test/infra/synth-parity.test.ts runs the real CLI
 * and checks this). The app reads them in lib/parameters.ts (CDK_DEFAULT_*).
 */
export const CLI_ENVIRONMENT: Readonly<Record<string, string>> = { CDK_DEFAULT_REGION: 'us-east-1' };

/**
 * Context keys the CLI adds on its own: path and asset metadata, the CDKMetadata resource, and validation findings
 * (cdk-nag's) written into the cloud assembly for the CLI to report and fail on, instead of thrown by `app.synth()`.
 */
export const CLI_FLAGS: Readonly<Record<string, unknown>> = {
  'aws:cdk:enable-path-metadata': true,
  'aws:cdk:enable-asset-metadata': true,
  'aws:cdk:version-reporting': true,
  '@aws-cdk/core:failSynthOnValidationErrors': false,
};

/**
 * The context the CDK CLI gives the app: cdk.context.json, then cdk.json's `context` over it, then the CLI's own flags,
 * then `-c` flags (`overrides`; the CLI passes their values as strings). Infra tests synthesize with it so they check
 * the templates an operator gets, feature flags included; only bundling is left out (`aws:cdk:bundling-stacks`: the
 * templates, not the bundles, are what the infra tests read).
 */
export function cliContext(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  const read = (file: string) => JSON.parse(readFileSync(join(ROOT, file), 'utf8')) as Record<string, unknown>;
  const cdkJson = read('cdk.json').context as Record<string, unknown>;
  return { ...read('cdk.context.json'), ...cdkJson, ...CLI_FLAGS, 'aws:cdk:bundling-stacks': [], ...overrides };
}

/** A new CDK app with the CLI's context (plus `overrides`, as `-c key=value` would give them). */
export function cliApp(overrides: Record<string, unknown> = {}): App {
  return new App({ context: cliContext(overrides) });
}

/** Runs `build` with the CLI's environment variables (CLI_ENVIRONMENT, no CDK_DEFAULT_ACCOUNT), then restores them. */
export function withCliEnvironment<T>(build: () => T): T {
  const keys = ['CDK_DEFAULT_REGION', 'CDK_DEFAULT_ACCOUNT'];
  const saved = Object.fromEntries(keys.map((k) => [k, process.env[k]]));
  for (const k of keys) delete process.env[k];
  Object.assign(process.env, CLI_ENVIRONMENT);
  try {
    return build();
  } finally {
    for (const k of keys) {
      if (saved[k] === undefined) delete process.env[k];
      else process.env[k] = saved[k];
    }
  }
}

/**
 * The whole Agora app built as `cdk synth` builds it (no bundling): the CLI's context and environment. `-c nag=true`
 * (`{ nag: 'true' }`) adds cdk-nag's checks as the CLI's flag does. `before` runs on the app before the stacks are
 * built (say, to add a validation plugin).
 */
export function synthesizeAsCli(overrides: Record<string, unknown> = {}, before?: (app: App) => void) {
  const app = cliApp(overrides);
  before?.(app);
  return withCliEnvironment(() => buildApp(app));
}

/** One finding of the validation report (cdk-nag's rule packs, construct annotations) as the CLI reads it. */
export interface Finding {
  plugin: string;
  rule: string;
  severity: string;
  paths: string[];
}

/**
 * Synthesizes `app` into a temporary cloud assembly and returns what its validation-report.json says: the findings the
 * CLI prints after `cdk synth` and fails on (severity `error`), read from the same file, not from a thrown exception
 * (the CLI's context sets `@aws-cdk/core:failSynthOnValidationErrors` to false).
 */
export function validationFindings(app: App): Finding[] {
  const file = join(app.synth({ force: true }).directory, 'validation-report.json');
  if (!existsSync(file)) return [];
  const report = JSON.parse(readFileSync(file, 'utf8')) as {
    pluginReports: {
      pluginName: string;
      violations: { ruleName: string; severity: string; violatingConstructs: { constructPath: string }[] }[];
    }[];
  };
  return report.pluginReports.flatMap((p) =>
    p.violations.map((v) => ({
      plugin: p.pluginName,
      rule: v.ruleName,
      severity: v.severity,
      paths: v.violatingConstructs.map((c) => c.constructPath),
    })),
  );
}
