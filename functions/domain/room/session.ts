import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * A bidder's session in the room page, once their participation link verified and they agreed to the terms: a token
 * `<bidId>.<expires>.<mac>` (HMAC-SHA256 under a key derived from the participation secret, bound to the auction and
 * to its use). The `cookie` kind lives in an HttpOnly cookie for hours; the `socket` kind, minted from the cookie for
 * each WebSocket handshake, for a minute (a script reads it, so it must be worthless soon). Nothing is stored: a second
 * tab gets its own socket token for the same bidder, and stays that one bidder. Pure: node:crypto only.
 */
export type SessionKind = 'cookie' | 'socket';

export const SESSION_SECONDS: Record<SessionKind, number> = { cookie: 12 * 3600, socket: 60 };

const BID_ID = /^[0-9a-f]{32}$/;

const mac = (secret: string, kind: SessionKind, auctionId: string, bidId: string, expires: number) =>
  createHmac('sha256', createHmac('sha256', secret).update('agora room session').digest())
    .update(`${kind}|${auctionId}|${bidId}|${expires}`)
    .digest('base64url');

export function sessionToken(secret: string, kind: SessionKind, auctionId: string, bidId: string, nowSeconds: number) {
  const expires = nowSeconds + SESSION_SECONDS[kind];
  return `${bidId}.${expires}.${mac(secret, kind, auctionId, bidId, expires)}`;
}

/** The bidder a token stands for, if it is this auction's, of this kind, and not expired; else undefined. */
export function sessionBidder(
  secret: string,
  kind: SessionKind,
  auctionId: string,
  token: string | undefined,
  nowSeconds: number,
): string | undefined {
  const [bidId, expiresText, given, ...rest] = (token ?? '').split('.');
  const expires = Number(expiresText);
  if (rest.length || !BID_ID.test(bidId ?? '') || !/^\d{1,12}$/.test(expiresText ?? '') || expires < nowSeconds)
    return undefined;
  const expected = Buffer.from(mac(secret, kind, auctionId, bidId, expires));
  const received = Buffer.from(given ?? '');
  return received.length === expected.length && timingSafeEqual(received, expected) ? bidId : undefined;
}
