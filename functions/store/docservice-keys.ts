import { keyringFromSeeds, seedFromSecret, type Keyring } from '#domain/documents/docservice.ts';
import { config } from '#platform/config.ts';
import { observeSecretRead, readSecretString } from './secrets.ts';

/**
 * The document service's signing key, loaded once per container.
 *
 * - AWS: the Secrets Manager secret named by `DOCSERVICE_SECRET_ARN` (CDK generates it; it never appears in code or
 *   in the template), read through the AWS Parameters and Secrets Lambda extension on localhost (no SDK client).
 *   The Ed25519 seed is the SHA-256 of the secret string.
 * - Locally (`npm start`, tests: `AGORA_LOCAL=1`): `AGORA_DOCSERVICE_SEED` (64 hex) or else DEV_DOCSERVICE_SEED.
 */

/** DEV ONLY: the documented signing seed of `npm start` and the tests. Never used in AWS (see loadKeyring). */
export const DEV_DOCSERVICE_SEED = 'a9e1d0c2b3f4e5d6c7b8a9f0e1d2c3b4a5f6e7d8c9b0a1f2e3d4c5b6a7f8e9d0';

export const devKeyring = (): Keyring =>
  keyringFromSeeds(Buffer.from(config().docserviceSeed ?? DEV_DOCSERVICE_SEED, 'hex'));

let loading: Promise<Keyring> | undefined;

async function fromSecretsExtension(secretId: string): Promise<Keyring> {
  return keyringFromSeeds(seedFromSecret(await readSecretString(secretId)));
}

export function loadKeyring(): Promise<Keyring> {
  observeSecretRead(config().docserviceSecretArn, 'docservice');
  loading ??= (async () => {
    const { docserviceSecretArn: secretId, local } = config();
    if (secretId) return fromSecretsExtension(secretId);
    if (local) return devKeyring();
    throw new Error('docservice key: DOCSERVICE_SECRET_ARN is not set (and this is not the local runtime)');
  })();
  // A failed load is retried by the next request instead of poisoning the container.
  loading.catch(() => (loading = undefined));
  return loading;
}
