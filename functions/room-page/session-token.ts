import { pageHandler } from '#http-kit/http-handler.ts';
import { requestNow } from '#platform/clock.ts';
import { pageSecret } from '#runtime/room-page.ts';
import { COOKIE, cookiesOf, notFound, SECURITY_HEADERS, targetOf, type Event, type Result } from './http.ts';
import { sessionBidder, sessionToken } from '#domain/room/session.ts';

/**
 * GET /insider-auctions/{auctionId}/session and /texas-auctions/{auctionId}/session (public; the cookie decides):
 * what the page's script connects to the room's WebSocket with. A bidder's session cookie (login.ts) gets a socket
 * token good for a minute, asked again before every (re)connection; without a valid cookie `{}`: the page watches.
 */
export const handler = pageHandler(async (event: Event): Promise<Result> => {
  const target = targetOf(event);
  if (!target) return notFound();
  const secret = await pageSecret();
  const nowSeconds = Math.floor(requestNow() / 1e6);
  const bidderId = sessionBidder(secret, 'cookie', target.auctionId, cookiesOf(event)[COOKIE], nowSeconds);
  const body = bidderId
    ? { bidderId, token: sessionToken(secret, 'socket', target.auctionId, bidderId, nowSeconds) }
    : {};
  return {
    statusCode: 200,
    headers: { ...SECURITY_HEADERS, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  };
});
