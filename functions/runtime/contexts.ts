import type { AuctionsContext, AuctionsReadContext, PeriodsContext } from '#domain/auctions/context.ts';
import type { EventContext } from '#domain/auctions/timed-events.ts';
import type { Timing } from '#domain/calendar/periods.ts';
import type { DocumentContext } from '#domain/documents/docservice.ts';
import { AUCTION_ROOM, readerHidingDrafts, repositoryHidingDrafts, type Principal } from '#domain/kernel/principal.ts';
import type { Micros } from '#domain/kernel/time.ts';
import { auctionReader, auctionRepository } from '#store/auction-repository.ts';
import { participationSecret } from '#store/participation-secret.ts';
import { sequences } from '#store/sequences.ts';
import { serviceCalendar } from './calendar.ts';
import { config } from '#platform/config.ts';
import { creating } from './idempotency.ts';

/**
 * The composition root of the auctions contexts: the one place that binds the auction commands' contexts to this
 * deployment's repository, sequences, working-day calendar and configuration, for the HTTP handlers, the bots and
 * the room alike. Callers say only who acts, when, and on what.
 *
 * The document context is built beside it, in ./documents.ts (`DocumentPorts.context`), for the HTTP kit and the room
 * alike: apart, because only the Lambdas that touch documents may load the document ports (test/infra/bundles.test.ts),
 * and every auction route loads this module.
 */

/** Who acts, when, and on what: an HTTP request (an `HttpRequest` is one) or a system's own run. */
export interface Call {
  principal: Principal;
  now: Micros;
  /** The auction type the route serves (its `type`, e.g. `landlease`): other types are not found there. */
  type?: string;
  /** The request's document context, on routes that touch documents. */
  files?: DocumentContext;
}

/**
 * The context of an auction command. `createdId`: the id an Idempotency-Key gives what a create makes. A draft the
 * caller may not read is not there (kernel/principal.ts `repositoryHidingDrafts`), on every route under it.
 */
export const auctionsContext = (call: Call, createdId?: string): AuctionsContext => ({
  principal: call.principal,
  now: call.now,
  files: call.files,
  auctions: creating(repositoryHidingDrafts(auctionRepository, call.principal, 'auction_id'), createdId),
  createdId,
  sequences,
  type: call.type ?? '',
  auctionSite: config().auctionSite, // where the auction system holds auctions; `auctionUrl` is built from it
});

/**
 * The context of a read route: the read half of the repository only, so its bundle leaves the write path out; a
 * draft the caller may not read is not there.
 */
export const auctionsReadContext = (call: Call): AuctionsReadContext => ({
  principal: call.principal,
  now: call.now,
  auctions: readerHidingDrafts(auctionReader, call.principal),
  type: call.type ?? '',
  auctionSite: config().auctionSite,
});

/** The context of the commands that may count periods: with the deployment's working-day calendar. */
export const periodsContext = async (call: Call, createdId?: string): Promise<PeriodsContext> => ({
  ...auctionsContext(call, createdId),
  calendar: await serviceCalendar(),
});

/** A context with the server secret participation links are keyed with: routes that show or make a bid's link. */
export const withParticipation = async <C extends object>(
  context: C,
): Promise<C & { participationSecret: string }> => ({
  ...context,
  participationSecret: await participationSecret(),
});

/** The time a bot runs at, with the working-day calendar (awarding deadlines count working days). */
export const timing = async (now: Micros): Promise<Timing> => ({ now, calendar: await serviceCalendar() });

/** The context of the auctions' timed events (the chronograph). */
export const timedEventsContext = async (now: Micros): Promise<Pick<AuctionsContext, 'auctions'> & EventContext> => ({
  auctions: auctionRepository,
  ...(await timing(now)),
  auctionSite: config().auctionSite,
});

/** The context the room posts an auction's results in: as the auction system (`AUCTION_ROOM`), for its type. */
export const roomResultsContext = (type: string, now: Micros): Promise<PeriodsContext> =>
  periodsContext({ principal: AUCTION_ROOM, now, type });
