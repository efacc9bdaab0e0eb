import type { AuctionsContext } from '#domain/auctions/commands.ts';
import type { HttpRequest } from '#http-kit/http-handler.ts';
import { auctionRepository } from '#store/auction-repository.ts';
import { sequences } from '#store/sequences.ts';

/** Where the auction system holds auctions; `auctionUrl` is built from it. */
export const auctionSite = (): string => process.env.AGORA_AUCTION_SITE ?? 'https://auction.agora.example';

/** DEV ONLY: the documented participation secret of `npm start` and the tests (`AGORA_LOCAL=1`). Never used in AWS. */
export const DEV_PARTICIPATION_SECRET = 'agora-dev-participation-secret-not-for-production';

/**
 * The server secret bidders' participation links are keyed with (HMAC-SHA256, domain/auctions/bids.ts):
 * `AGORA_PARTICIPATION_SECRET`; locally (`AGORA_LOCAL=1`) DEV_PARTICIPATION_SECRET when it is not set.
 * Anywhere else a missing secret is refused: links keyed with a public default could be forged.
 */
export function participationSecret(): string {
  const secret = process.env.AGORA_PARTICIPATION_SECRET;
  if (secret) return secret;
  if (process.env.AGORA_LOCAL === '1') return DEV_PARTICIPATION_SECRET;
  throw new Error('participation links: AGORA_PARTICIPATION_SECRET is not set (and this is not the local runtime)');
}

/** The ports every auction command gets, bound to this request; the route's `variant` is the auction type. */
export const auctionsContext = (req: HttpRequest): AuctionsContext => ({
  principal: req.principal,
  now: req.now,
  files: req.files,
  auctions: auctionRepository,
  sequences,
  type: req.variant ?? '',
  auctionSite: auctionSite(),
});
