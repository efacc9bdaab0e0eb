import { type App, CfnResource, Stack } from 'aws-cdk-lib';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cliApp, synthesizeAsCli, validationFindings } from '../support/synth.ts';

const errors = (app: App) =>
  validationFindings(app)
    .filter((f) => f.severity === 'error')
    .map((f) => `${f.plugin}: ${f.rule} on ${f.paths.join(', ')}`);

/**
 * CloudFormation's own template rules (the validation `cdk synth` runs, @aws/cloudformation-validate), here made strict:
 * a violation fails. The other infra tests synthesize with it off (vitest.config.ts sets CDK_VALIDATION=false for the
 * infra project): it took 6 s of CPU per synthesis, most of that project's time, for templates checked once here.
 */
describe('CloudFormation template validation', () => {
  let saved: string | undefined;
  beforeEach(() => {
    saved = process.env.CDK_VALIDATION;
    delete process.env.CDK_VALIDATION;
  });
  afterEach(() => {
    if (saved === undefined) delete process.env.CDK_VALIDATION;
    else process.env.CDK_VALIDATION = saved;
  });

  it('every stack passes the default rules', () => {
    // cdk.json turns the rules on (`@aws-cdk/core:validateAgainstDefaultRules`), as the CLI synthesizes.
    // Read from the validation report, as the CLI does (its context does not let `synth()` throw).
    const { app } = synthesizeAsCli();
    expect(errors(app)).toEqual([]);
  });

  it('still fails on a template that breaks them', () => {
    const app = cliApp();
    const stack = new Stack(app, 'Broken');
    new CfnResource(stack, 'Table', { type: 'AWS::DynamoDB::Table', properties: { BillingMode: 'WHENEVER' } });
    expect(errors(app).join('\n')).toMatch(/Broken\/Table/);
  });
});
