import { pageHandler } from '#http-kit/http-handler.ts';
import { requestNow } from '#platform/clock.ts';
import {
  COOKIE,
  formOf,
  notFound,
  secureRequest,
  SECURITY_HEADERS,
  targetOf,
  type Event,
  type Result,
} from './http.ts';
import { isRefusal, verifiedLink } from './link.ts';
import { SESSION_SECONDS, sessionToken } from '#domain/room/session.ts';

/**
 * POST /insider-auctions/{auctionId}/login and /texas-auctions/{auctionId}/login (public): the bidder agrees to the
 * terms login.ts showed, with the link's fields, verified again. It gives the bidder's session: an HttpOnly,
 * SameSite=Strict cookie for this auction's pages only (Secure over HTTPS), then the room page.
 */
export const handler = pageHandler(async (event: Event): Promise<Result> => {
  const target = targetOf(event);
  if (!target) return notFound();
  const link = await verifiedLink(target, formOf(event));
  if (isRefusal(link)) return link;
  const nowSeconds = Math.floor(requestNow() / 1e6);
  const cookie = [
    `${COOKIE}=${sessionToken(link.secret, 'cookie', target.auctionId, link.bidderId, nowSeconds)}`,
    `Path=${target.base}`,
    `Max-Age=${SESSION_SECONDS.cookie}`,
    'HttpOnly',
    'SameSite=Strict',
    ...(secureRequest(event) ? ['Secure'] : []),
  ].join('; ');
  return { statusCode: 303, headers: { ...SECURITY_HEADERS, location: target.base, 'set-cookie': cookie }, body: '' };
});
