import { App } from 'aws-cdk-lib';
import { Bucket } from 'aws-cdk-lib/aws-s3';
import { describe, expect, it } from 'vitest';
import { buildApp } from '../../bin/agora.ts';
import { addNagChecks, RESOURCE_WILDCARDS } from '../../lib/nag.ts';

/** cdk-nag's AwsSolutions pack over the synthesized app (no bundling: the templates are what it checks). */
function synthWithNag(context: Record<string, unknown> = {}, extra?: (built: ReturnType<typeof buildApp>) => void) {
  const app = new App({ context: { 'aws:cdk:bundling-stacks': [], ...context } });
  addNagChecks(app);
  const built = buildApp(app);
  extra?.(built);
  return () => app.synth();
}

describe('cdk-nag AwsSolutions', () => {
  it('passes over the whole app, every finding fixed or acknowledged with a reason', () => {
    expect(synthWithNag()).not.toThrow();
  });

  it('passes for another stage and other parameters too (acknowledgements do not depend on names)', () => {
    expect(
      synthWithNag({
        stage: 'prod',
        account: '123456789012',
        region: 'eu-central-1',
        budgetUsd: 300,
        throttleRate: 20,
        alarmEmail: 'ops@example.org',
        botSchedules: '{"convoy":"rate(5 minutes)"}',
      }),
    ).not.toThrow();
  });

  it('still fails on a new, unacknowledged finding', () => {
    expect(synthWithNag({}, (built) => new Bucket(built.data, 'Careless'))).toThrow(/AwsSolutions-S1/);
  });

  it('gives every acknowledgement a written reason', () => {
    for (const w of RESOURCE_WILDCARDS) expect(w.reason.length).toBeGreaterThan(40);
  });
});
