import { App, CfnResource, Stack } from 'aws-cdk-lib';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildApp } from '../../bin/agora.ts';

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
    const app = new App({
      context: { 'aws:cdk:bundling-stacks': [], '@aws-cdk/core:validateAgainstDefaultRules': true },
    });
    buildApp(app);
    expect(() => app.synth()).not.toThrow();
  });

  it('still fails on a template that breaks them', () => {
    const app = new App({ context: { '@aws-cdk/core:validateAgainstDefaultRules': true } });
    const stack = new Stack(app, 'Broken');
    new CfnResource(stack, 'Table', { type: 'AWS::DynamoDB::Table', properties: { BillingMode: 'WHENEVER' } });
    expect(() => app.synth()).toThrow();
  });
});
