import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { tsFiles } from '../support/source-files.ts';
import { CLI_ENVIRONMENT, cliContext } from '../support/synth.ts';

/**
 * The infra tests check the templates an operator gets only if they build the app with what the CDK CLI gives it.
 * Here the real CLI (`npx cdk synth`, as on a fresh clone: no credentials, no configured region) runs a probe app that
 * writes down the context and CDK_DEFAULT_* variables it was given, and test/support/synth.ts must give the same.
 */
const ROOT = resolve(import.meta.dirname, '../..');
const dir = mkdtempSync(join(tmpdir(), 'agora-cli-probe-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const PROBE = `
const { writeFileSync } = require('node:fs');
const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => k.startsWith('CDK_DEFAULT_')));
writeFileSync(${JSON.stringify(join(dir, 'seen.json'))}, JSON.stringify({ context: JSON.parse(process.env.CDK_CONTEXT_JSON ?? '{}'), env }));
writeFileSync(process.env.CDK_OUTDIR + '/manifest.json', JSON.stringify({ version: '43.0.0', artifacts: {} }));
`;
writeFileSync(join(dir, 'probe.cjs'), PROBE);

/** What the CLI hands the app for `npx cdk synth <args>`, run from the project's folder. */
async function cliGives(args: string[]) {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    AWS_CONFIG_FILE: join(dir, 'none'),
    AWS_SHARED_CREDENTIALS_FILE: join(dir, 'none'),
  };
  for (const k of ['AWS_REGION', 'AWS_DEFAULT_REGION', 'AWS_PROFILE', 'AWS_ACCESS_KEY_ID', 'AWS_SECRET_ACCESS_KEY'])
    delete env[k];
  for (const k of Object.keys(env)) if (k.startsWith('CDK_')) delete env[k];
  const cdk = join(ROOT, 'node_modules/.bin/cdk');
  rmSync(join(dir, 'seen.json'), { force: true });
  // The probe makes no stacks, so the CLI ends with "This app contains no stacks" (exit 1): what it gave is written.
  await promisify(execFile)(
    cdk,
    ['synth', '--app', `node ${join(dir, 'probe.cjs')}`, '-o', join(dir, 'out'), ...args],
    {
      cwd: ROOT,
      env,
    },
  ).catch((error: Error) => {
    if (!/contains no stacks/.test(error.message)) throw error;
  });
  return JSON.parse(readFileSync(join(dir, 'seen.json'), 'utf8')) as {
    context: Record<string, unknown>;
    env: Record<string, string>;
  };
}

// Bundling is the one thing the tests leave out on purpose (they read templates, not bundles).
const withoutBundling = ({ 'aws:cdk:bundling-stacks': _, ...rest }: Record<string, unknown>) => rest;

describe('infra tests synthesize as the CDK CLI does', () => {
  it('with the context and environment `npx cdk synth -c nag=true` gives the app', async () => {
    const seen = await cliGives(['-c', 'nag=true']);
    expect(withoutBundling(cliContext({ nag: 'true' }))).toEqual(withoutBundling(seen.context));
    expect(seen.env).toEqual(CLI_ENVIRONMENT);
  });

  it('and with -c stage=prod -c account=… -c region=… (the values are strings, as the CLI passes them)', async () => {
    const prod = { stage: 'prod', account: '123456789012', region: 'eu-central-1' };
    const seen = await cliGives(Object.entries(prod).flatMap(([k, v]) => ['-c', `${k}=${v}`]));
    expect(withoutBundling(cliContext(prod))).toEqual(withoutBundling(seen.context));
  });

  it('every test builds the app through test/support/synth.ts, never a bare App without cdk.json', () => {
    const bare = tsFiles(join(ROOT, 'test'))
      .filter((f) => !f.endsWith('test/support/synth.ts'))
      .filter((f) => /\bnew App\(|\bbuildApp\(/.test(readFileSync(f, 'utf8')))
      .map((f) => relative(ROOT, f));
    expect(bare).toEqual([]);
  });
});
