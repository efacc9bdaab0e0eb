import { config } from '#platform/config.ts';
import { observeCall } from './aws-calls.ts';

/**
 * Reads a Secrets Manager secret through the AWS Parameters and Secrets Lambda extension (localhost, cached by the
 * extension; no SDK client in the bundle). Functions that read secrets get the extension layer from CDK.
 */
export async function readSecretString(secretId: string): Promise<string> {
  const { secretsExtensionPort: port, awsSessionToken } = config();
  const res = await fetch(`http://localhost:${port}/secretsmanager/get?secretId=${encodeURIComponent(secretId)}`, {
    headers: { 'X-Aws-Parameters-Secrets-Token': awsSessionToken },
  });
  if (!res.ok) throw new Error(`secret ${secretId}: the secrets extension answered ${res.status}`);
  const { SecretString } = (await res.json()) as { SecretString?: string };
  if (!SecretString) throw new Error(`secret ${secretId}: no string value`);
  return SecretString;
}

/**
 * Tells the tests' call observer (aws-calls.ts) that the caller reads this secret: at every use, not only the first
 * (the value is cached per container, and locally one process serves every Lambda). `name` stands for the ARN locally.
 */
export const observeSecretRead = (arn: string | undefined, name: string): void =>
  observeCall({ service: 'SecretsManager', command: 'GetSecretValueCommand', input: { SecretId: arn ?? name } });
