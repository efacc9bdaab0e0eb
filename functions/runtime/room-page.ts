import type { RoomState } from '#domain/room/model.ts';
import { participationSecret } from '#store/participation-secret.ts';
import { roomRepository } from '#store/room-repository.ts';

/**
 * What the room page reads of the service, wired here so that the page never imports the store (as the HTTP kit gets
 * its document ports from runtime/documents.ts): the participation secret (its links and session tokens are checked
 * with it: domain/auctions/room-links.ts, domain/room/session.ts) and the room's state (the terms page's facts).
 */
export interface RoomPagePorts {
  participationSecret(): Promise<string>;
  /** The room's state, one read; none before the room is planned. */
  roomState(auctionId: string): Promise<RoomState | undefined>;
}

export const roomPagePorts: RoomPagePorts = {
  participationSecret,
  roomState: async (auctionId) => (await roomRepository.get(auctionId))?.state,
};
