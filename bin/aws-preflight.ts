import { spawnSync } from 'node:child_process';
import { CloudFormationClient } from '@aws-sdk/client-cloudformation';
import { answerHelp } from '../lib/cli-help.ts';

/**
 * `npm run diff` and `npm run deploy` (`tsx bin/aws-preflight.ts cdk diff|deploy --all`, then the script's own
 * arguments): first an AWS region and credentials, found as the CDK CLI will find them (the SDK's chain: AWS_PROFILE
 * and ~/.aws, the environment, SSO, an instance role), then the command, its exit code ours. Without them the CLI would
 * bundle every Lambda first and then print the SDK's error twice; this says what to set, in one line, before any of
 * it. Running the command from here, not after `&&`, is what lets `--help` reach this script rather than only cdk.
 */
const command = process.argv.slice(2);
const script = command[1] === 'deploy' ? 'deploy' : 'diff';
answerHelp(
  script === 'deploy'
    ? 'Deploys every stack of the app (cdk deploy --all), after checking that an AWS region and credentials are set.'
    : 'Shows what a deploy would change (cdk diff), after checking that an AWS region and credentials are set.',
  [
    `usage: npm run ${script} [-- <cdk ${script} options>]   e.g. -c stage=prod -c alarmEmail=ops@example.org`,
    'parameters (-c name=value): docs/operations.md "Parameters"; the options of cdk itself: npx cdk ' +
      `${script} --help`,
  ].join('\n'),
);
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
if (command.length > 0) {
  const run = spawnSync(command[0]!, command.slice(1), { stdio: 'inherit' });
  if (run.error) fail(`${command[0]}: ${run.error.message}`);
  process.exit(run.status ?? 1);
}
