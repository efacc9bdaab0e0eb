import { auctionType } from '#domain/auctions/catalog.ts';
import { postAuctionResults } from '#domain/auctions/commands.ts';
import { attachRoomAudit, markRoom, roomAuctionOf } from '#domain/auctions/room.ts';
import { roomDue } from '#domain/auctions/room-due.ts';
import { fileUrl, md5Hex, newFileKey, type DocumentContext } from '#domain/documents/docservice.ts';
import type { Micros } from '#domain/kernel/time.ts';
import { results, type RoomState } from '#domain/room/engine.ts';
import type { RoomAuctions } from '#domain/room/ports.ts';
import { serviceCalendar } from '#runtime/calendar.ts';
import { config } from '#runtime/config.ts';
import { documentPorts } from '#runtime/documents.ts';
import { auctionRepository } from '#store/auction-repository.ts';
import { fileStore } from '#store/files/configured-store.ts';
import { sequences } from '#store/sequences.ts';
import { roomContext } from './context.ts';
import type { LifecycleContext } from './lifecycle.ts';

/**
 * The auction side of the room (`RoomAuctions`, domain/room/ports.ts) on the auctions' own commands and store: what
 * the room's timer and bot hand the lifecycle (lifecycle.ts), and only they load. The two contexts it builds (the
 * results post's auctions context, the audit's document context) are one small function each.
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
    await postAuctionResults(resultsContext(state, now), state.auctionId, results(state) as never);
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
    const { files, markAttached } = await auditFiles(state, now);
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

/** The results post's context: the room as the auction system posting to its auction. */
const resultsContext = (state: RoomState, now: Micros) => ({
  principal: { name: 'auction-room', role: 'auction' as const, levels: '' },
  now,
  auctions: auctionRepository,
  sequences,
  type: state.procurementMethodType,
  auctionSite: config().auctionSite,
  calendar: serviceCalendar(),
});

/** The audit's document context: the auction's documents collection, the deployment's keyring and document service. */
async function auditFiles(state: RoomState, now: Micros) {
  const ports = await documentPorts();
  const baseUrl = config().publicUrl ?? '';
  const files: DocumentContext = {
    keyring: ports.keyring,
    docservice: ports.docservice(baseUrl),
    collection: `${auctionType(state.procurementMethodType).apiBase}/${state.auctionId}/documents`,
    baseUrl,
    nowSeconds: Math.floor(now / 1e6),
    attached: [],
  };
  return { files, markAttached: ports.markAttached };
}
