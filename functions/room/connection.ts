import { linkSchemeOf } from '#domain/auctions/room-links.ts';
import { sessionBidder } from '#domain/room/session.ts';
import type { RoomContext } from './room.ts';

const ID = /^[0-9a-f]{32}$/;

/** What a connection needs besides the room: the secret participation links and session tokens are checked with. */
export interface ConnectContext extends RoomContext {
  participationSecret: () => Promise<string>;
}

/** A refused handshake: the status API Gateway answers the client's upgrade with, and why (the API's error fields). */
export interface HandshakeRefusal {
  status: 403 | 404;
  name: string;
  description: string;
}

const refusal = (status: 403 | 404, name: string, description: string): HandshakeRefusal => ({
  status,
  name,
  description,
});

/**
 * `$connect`: `?auction_id=<id>` makes an observer; with a bidder's participation link parameters (`bidder_id` and
 * `signature` for 2.3, `hash` for 2.5) a bidder session, once the link verifies for this auction and this bidder
 * (Ed25519 / SHA-1 in constant time: domain/auctions/room-links.ts), or with the room page's socket token (`token`:
 * domain/room/session.ts, a bidder's session minted for a minute). A link or token that does not verify, or a bidder
 * the room does not have, is refused (403): never an observer session that looks like a bidder's. Undefined: connected.
 */
export async function connect(
  ctx: ConnectContext,
  connectionId: string,
  query: Record<string, string | undefined>,
): Promise<HandshakeRefusal | undefined> {
  const auctionId = query.auction_id ?? '';
  if (!ID.test(auctionId)) return refusal(404, 'auction_id', 'Not Found');
  const room = await ctx.store.get(auctionId);
  if (!room) return refusal(404, 'auction_id', 'The auction room is not open');
  const scheme = linkSchemeOf(room.state.procurementMethodType)!;
  const isBidder = (bidderId: string | undefined) => room.state.bidders.some((b) => b.bidId === bidderId);
  const bySession =
    query.token === undefined
      ? undefined
      : sessionBidder(await ctx.participationSecret(), 'socket', auctionId, query.token, Math.floor(ctx.clock() / 1e6));
  if (query.token !== undefined && !isBidder(bySession))
    return refusal(403, 'token', 'Invalid or expired session: open the participation link again');
  const bidderId = bySession ?? query.bidder_id;
  const key = query[scheme.param];
  const linkSent = bidderId !== undefined || query.signature !== undefined || query.hash !== undefined;
  if (linkSent && !bySession) {
    const verified =
      bidderId !== undefined &&
      isBidder(bidderId) &&
      key !== undefined &&
      scheme.verify(await ctx.participationSecret(), auctionId, bidderId, key);
    if (!verified) return refusal(403, scheme.param, 'Invalid participation link: not a bidder of this auction');
  }
  await ctx.store.connect({ connectionId, auctionId, ...(linkSent && { bidderId }) }, ctx.clock());
  return undefined;
}
