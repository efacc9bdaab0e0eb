import type { RoomState } from '#domain/room/model.ts';
import { participationSecret } from '#store/participation-secret.ts';
import { roomRepository } from '#store/room-repository.ts';

/**
 * What the room page reads of the service, wired here so that the page never imports the store (as the HTTP kit gets
 * its document ports from runtime/documents.ts). Two functions, not one object, so that a page Lambda bundles only
 * the store code of what it reads (the session token and the agreement never load the room's repository).
 */

/** The participation secret: the page's links and session tokens are checked with it (domain/auctions/room-links.ts, domain/room/session.ts). */
export const pageSecret = (): Promise<string> => participationSecret();

/** The room's state for the terms page's facts: one read; none before the room is planned. */
export const roomState = async (auctionId: string): Promise<RoomState | undefined> =>
  (await roomRepository.get(auctionId))?.state;
