import { postAuctionResults } from '#domain/auctions/commands.ts';
import { attachRoomAudit, markRoom, roomAuctionOf } from '#domain/auctions/room.ts';
import { roomDue } from '#domain/auctions/room-due.ts';
import { fileUrl, md5Hex, newFileKey } from '#domain/documents/docservice.ts';
import { results } from '#domain/room/engine.ts';
import type { RoomAuctions } from '#domain/room/ports.ts';
import { roomResultsContext } from '#runtime/contexts.ts';
import { auctionDocuments } from '#runtime/documents.ts';
import { auctionRepository } from '#store/auction-repository.ts';
import { fileStore } from '#store/files/configured-store.ts';
import { roomContext } from './context.ts';
import type { LifecycleContext } from './lifecycle.ts';

/**
 * The auction side of the room (`RoomAuctions`, domain/room/ports.ts) on the auctions' own commands and store: what
 * the room's timer and bot hand the lifecycle (lifecycle.ts), and only they load. Its contexts come from the composition
 * root (runtime/contexts.ts: the results post as `AUCTION_ROOM`) and the document ports (runtime/documents.ts).
 */
export const roomAuctions: RoomAuctions = {
  async work(auctionId) {
    const auction = await auctionRepository.get(auctionId);
    if (!auction) return undefined;
    const work = roomDue(auction.root, auction.internal);
    if (work === 'plan') return { plan: roomAuctionOf(auction) };
    return work === 'close' ? { close: true } : undefined;
  },

  mark: (auctionId, mark, now) => markRoom(auctionRepository, auctionId, mark, now),

  async postResults(state, now) {
    await postAuctionResults(
      await roomResultsContext(state.procurementMethodType, now),
      state.auctionId,
      results(state),
    );
  },

  async resultsPosted(auctionId) {
    const auction = await auctionRepository.get(auctionId);
    return !!auction && auction.root.status !== 'active.auction';
  },

  async attachAudit(state, audit, now) {
    const id = state.auctionId;
    const bytes = Buffer.from(JSON.stringify(audit, null, 2), 'utf8');
    const md5 = md5Hex(bytes);
    const key = newFileKey();
    await fileStore().put(key, bytes, md5);
    const { files, markAttached } = await auctionDocuments(state.procurementMethodType, id, now);
    const hash = `md5:${md5}`;
    await attachRoomAudit(
      auctionRepository,
      id,
      {
        title: `audit_${id}.json`,
        url: fileUrl(files.keyring, files.docservice, key, hash),
        hash,
        format: 'application/json',
      },
      files,
      now,
    );
    await markAttached([key]);
  },
};

/** The timer's and the bot's context: the room's (context.ts) and its auction. */
export const lifecycleContext = (): LifecycleContext => ({ ...roomContext(), auctions: roomAuctions });
