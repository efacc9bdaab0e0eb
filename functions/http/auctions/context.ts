import type { AuctionsContext, PeriodsContext } from '#domain/auctions/context.ts';
import type { HttpRequest } from '#http-kit/http-handler.ts';
import { auctionRepository } from '#store/auction-repository.ts';
import { sequences } from '#store/sequences.ts';
import { serviceCalendar } from '#runtime/calendar.ts';
import { config } from '#runtime/config.ts';
import { creating } from '#runtime/idempotency.ts';

/**
 * The ports every auction command gets, bound to this request; the route's `type` is the auction type.
 * `createdId`: the id an Idempotency-Key gives the child a create makes (runtime/idempotency.ts).
 */
export const auctionsContext = (req: HttpRequest, createdId?: string): AuctionsContext => ({
  principal: req.principal,
  now: req.now,
  files: req.files,
  auctions: creating(auctionRepository, createdId),
  createdId,
  sequences,
  type: req.type ?? '',
  auctionSite: config().auctionSite, // where the auction system holds auctions; `auctionUrl` is built from it
});

/** The context of the routes whose commands may count periods: with the deployment's working-day calendar. */
export const periodsContext = (req: HttpRequest, createdId?: string): PeriodsContext => ({
  ...auctionsContext(req, createdId),
  calendar: serviceCalendar(),
});
