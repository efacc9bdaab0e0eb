import type { AuctionsContext } from '#domain/auctions/commands.ts';
import type { HttpRequest } from '#http-kit/http-handler.ts';
import { auctionRepository } from '#store/auction-repository.ts';
import { sequences } from '#store/sequences.ts';
import { config } from '#runtime/config.ts';

/** The ports every auction command gets, bound to this request; the route's `variant` is the auction type. */
export const auctionsContext = (req: HttpRequest): AuctionsContext => ({
  principal: req.principal,
  now: req.now,
  files: req.files,
  auctions: auctionRepository,
  sequences,
  type: req.variant ?? '',
  auctionSite: config().auctionSite, // where the auction system holds auctions; `auctionUrl` is built from it
});
