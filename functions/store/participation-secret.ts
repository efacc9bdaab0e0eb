import { config } from '#runtime/config.ts';
import { readSecretString } from './secrets.ts';

/** DEV ONLY: the documented participation secret of `npm start` and the tests (`AGORA_LOCAL=1`). Never used in AWS. */
export const DEV_PARTICIPATION_SECRET = 'agora-dev-participation-secret-not-for-production';

let fromSecretsManager: Promise<string> | undefined;

/**
 * The server secret bidders' participation links are keyed with (HMAC-SHA256, domain/auctions/bids.ts), once per
 * container: in AWS the generated secret named by PARTICIPATION_SECRET_ARN; else AGORA_PARTICIPATION_SECRET; locally
 * (`AGORA_LOCAL=1`) DEV_PARTICIPATION_SECRET. Anywhere else a missing secret is refused: links keyed with a public
 * default could be forged.
 */
export async function participationSecret(): Promise<string> {
  const { participationSecretArn: arn, participationSecret: configured, local } = config();
  if (arn) {
    fromSecretsManager ??= readSecretString(arn);
    // A failed read is retried by the next run instead of poisoning the container.
    return fromSecretsManager.catch((error) => {
      fromSecretsManager = undefined;
      throw error;
    });
  }
  if (configured) return configured;
  if (local) return DEV_PARTICIPATION_SECRET;
  throw new Error(
    'participation links: AGORA_PARTICIPATION_SECRET is not set (nor PARTICIPATION_SECRET_ARN, and this is not the local runtime)',
  );
}
