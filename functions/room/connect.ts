import { linkSchemeOf } from '#domain/auctions/room-links.ts';
import { requestNow } from '#runtime/clock.ts';
import { participationSecret } from '#store/participation-secret.ts';
import { roomRepository } from '#store/room-repository.ts';
import { sessionBidder } from '../room-page/session.ts';
import { wsHandler, type WebSocketResult } from './kit.ts';

const ID = /^[0-9a-f]{32}$/;

/** A refused handshake: API Gateway answers the client's upgrade with this status (the body is for local clients). */
const refuse = (statusCode: number, name: string, description: string): WebSocketResult => ({
  statusCode,
  body: JSON.stringify({ status: 'error', errors: [{ location: 'query', name, description }] }),
});

/**
 * $connect: `?auction_id=<id>` makes an observer; with a bidder's participation link parameters (`bidder_id` and
 * `signature` for 2.3, `hash` for 2.5) a bidder session, once the link verifies for this auction and this bidder
 * (Ed25519 / SHA-1 in constant time: domain/auctions/room-links.ts). A link that does not verify, or a bidder the
 * room does not have, is refused (403): never an observer session that looks like a bidder's.
 */
export const handler = wsHandler(async (event) => {
  const query = event.queryStringParameters ?? {};
  const auctionId = query.auction_id ?? '';
  if (!ID.test(auctionId)) return refuse(404, 'auction_id', 'Not Found');
  const room = await roomRepository.get(auctionId);
  if (!room) return refuse(404, 'auction_id', 'The auction room is not open');
  const scheme = linkSchemeOf(room.state.procurementMethodType)!;
  // The room page's socket token (room-page/session.ts: a bidder's session, minted for a minute) stands for the link.
  const bySession =
    query.token === undefined
      ? undefined
      : sessionBidder(await participationSecret(), 'socket', auctionId, query.token, Math.floor(requestNow() / 1e6));
  if (query.token !== undefined && !room.state.bidders.some((b) => b.bidId === bySession))
    return refuse(403, 'token', 'Invalid or expired session: open the participation link again');
  const bidderId = bySession ?? query.bidder_id;
  const key = query[scheme.param];
  const linkSent = bidderId !== undefined || query.signature !== undefined || query.hash !== undefined;
  if (linkSent && !bySession) {
    const known = bidderId !== undefined && room.state.bidders.some((b) => b.bidId === bidderId);
    const verified = known && key !== undefined && scheme.verify(await participationSecret(), auctionId, bidderId, key);
    if (!verified) return refuse(403, scheme.param, 'Invalid participation link: not a bidder of this auction');
  }
  await roomRepository.connect(
    { connectionId: event.requestContext.connectionId, auctionId, ...(linkSent && { bidderId }) },
    requestNow(),
  );
  return { statusCode: 200 };
});
