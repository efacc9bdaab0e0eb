import { CloudFormationClient } from '@aws-sdk/client-cloudformation';

/**
 * Before `npm run diff` and `npm run deploy`: an AWS region and credentials, found as the CDK CLI will find them (the
 * SDK's chain: AWS_PROFILE and ~/.aws, the environment, SSO, an instance role). Without them the CLI would bundle
 * every Lambda first and then print the SDK's error twice; this says what to set, in one line, before any of it.
 */
const fail = (line: string): never => {
  console.error(line);
  process.exit(1);
};
const client = new CloudFormationClient({});
const region = await client.config.region().catch(() => undefined);
if (!region)
  fail(
    'No AWS region: set AWS_REGION (export AWS_PROFILE=<profile> AWS_REGION=eu-central-1), or a region in the profile. npm run synth needs none.',
  );
await client.config
  .credentials()
  .catch((error: Error) =>
    fail(
      `No AWS credentials (${error.message.split('\n')[0]}): set AWS_PROFILE to a profile of ~/.aws/config (aws configure sso, then aws sso login), or AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY. npm run synth needs none.`,
    ),
  );
