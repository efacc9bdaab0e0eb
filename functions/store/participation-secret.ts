import { config } from '#platform/config.ts';
import { observeSecretRead, readSecretString } from './secrets.ts';

/**
 * DEV ONLY: the documented participation secret of `npm start` and the tests (`AGORA_LOCAL=1`): the Ed25519 seed of
 * the original's recorded participation links (spec/auction-room.md), so a local link reads as theirs. Never in AWS.
 */
export const DEV_PARTICIPATION_SECRET = 'fe3b3b5999a08e68dfe62687c2ae147f62712ceace58c1ffca8ea819eabcb5d1';

let fromSecretsManager: Promise<string> | undefined;

/**
 * The server secret bidders' participation links are keyed with (domain/auctions/room-links.ts), once per
 * container: in AWS the generated secret named by PARTICIPATION_SECRET_ARN; else AGORA_PARTICIPATION_SECRET; locally
 * (`AGORA_LOCAL=1`) DEV_PARTICIPATION_SECRET. Anywhere else a missing secret is refused: links keyed with a public
 * default could be forged.
 */
export async function participationSecret(): Promise<string> {
  const { participationSecretArn: arn, participationSecret: configured, local } = config();
  observeSecretRead(arn, 'participation');
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
