import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { App } from 'aws-cdk-lib';
import { buildApp } from '../../bin/agora.ts';

const ROOT = join(import.meta.dirname, '..', '..');

/**
 * The context the CDK CLI gives the app: cdk.context.json, then cdk.json's `context` over it, then `-c` flags
 * (`overrides`). Infra tests synthesize with it so they check the templates an operator gets, feature flags included;
 * only bundling is left out (the templates, not the bundles, are what the infra tests read).
 */
export function cliContext(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  const read = (file: string) => JSON.parse(readFileSync(join(ROOT, file), 'utf8')) as Record<string, unknown>;
  const cdkJson = read('cdk.json').context as Record<string, unknown>;
  return { ...read('cdk.context.json'), ...cdkJson, 'aws:cdk:bundling-stacks': [], ...overrides };
}

/** A new CDK app with the CLI's context (plus `overrides`, as `-c key=value` would give them). */
export function cliApp(overrides: Record<string, unknown> = {}): App {
  return new App({ context: cliContext(overrides) });
}

/** The whole Agora app built as `cdk synth` builds it (no bundling). */
export function synthesizeAsCli(overrides: Record<string, unknown> = {}) {
  return buildApp(cliApp(overrides));
}
