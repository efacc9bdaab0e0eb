import { Bucket } from 'aws-cdk-lib/aws-s3';
import { describe, expect, it } from 'vitest';
import { RESOURCE_WILDCARDS } from '../../lib/nag.ts';
import { synthesizeAsCli, validationFindings } from '../support/synth.ts';

/**
 * `npx cdk synth -c nag=true` as the CLI runs it (cdk.json's context and feature flags, the CLI's region; no bundling):
 * cdk-nag's AwsSolutions pack over the synthesized app, read from the cloud assembly's validation report, the file
 * the CLI prints and fails on.
 */
const PROD = { stage: 'prod', account: '123456789012', region: 'eu-central-1' };
const errors = (built: ReturnType<typeof synthesizeAsCli>) =>
  validationFindings(built.app)
    .filter((f) => f.severity === 'error')
    .map((f) => `${f.rule} on ${f.paths.join(', ')}`);

describe('cdk-nag AwsSolutions (npx cdk synth -c nag=true)', () => {
  it('passes over the whole app in dev, every finding fixed or acknowledged with a reason', () => {
    expect(errors(synthesizeAsCli({ nag: 'true' }))).toEqual([]);
  });

  it('passes with -c stage=prod -c account=… -c region=… (literal partition, region and account in the ARNs)', () => {
    expect(errors(synthesizeAsCli({ nag: 'true', ...PROD }))).toEqual([]);
  });

  it('passes for other parameters too (acknowledgements do not depend on names)', () => {
    const more = {
      budgetUsd: '300',
      throttleRate: '20',
      alarmEmail: 'ops@example.org',
      botSchedules: '{"convoy":"rate(5 minutes)"}',
    };
    expect(errors(synthesizeAsCli({ nag: 'true', ...PROD, stage: 'staging', ...more }))).toEqual([]);
  });

  it('still fails on a new, unacknowledged finding', () => {
    const built = synthesizeAsCli({ nag: 'true' });
    new Bucket(built.data, 'Careless');
    expect(errors(built).join('\n')).toMatch(/AwsSolutions-S1 on Agora-dev-Data\/Careless/);
  });

  it('gives every acknowledgement a written reason', () => {
    for (const w of RESOURCE_WILDCARDS) expect(w.reason.length).toBeGreaterThan(40);
  });
});
