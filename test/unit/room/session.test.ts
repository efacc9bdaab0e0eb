import { describe, expect, it } from 'vitest';
import { SESSION_SECONDS, sessionBidder, sessionToken } from '../../../functions/domain/room/session.ts';

const SECRET = 'a participation secret';
const AUCTION = 'a'.repeat(32);
const BID = 'b'.repeat(32);
const NOW = 1_800_000_000;

describe('room page sessions', () => {
  it('gives back the bidder of a token of its kind and auction until it expires', () => {
    const cookie = sessionToken(SECRET, 'cookie', AUCTION, BID, NOW);
    expect(sessionBidder(SECRET, 'cookie', AUCTION, cookie, NOW)).toBe(BID);
    expect(sessionBidder(SECRET, 'cookie', AUCTION, cookie, NOW + SESSION_SECONDS.cookie)).toBe(BID);
    expect(sessionBidder(SECRET, 'cookie', AUCTION, cookie, NOW + SESSION_SECONDS.cookie + 1)).toBeUndefined();
    const socket = sessionToken(SECRET, 'socket', AUCTION, BID, NOW);
    expect(sessionBidder(SECRET, 'socket', AUCTION, socket, NOW + 60)).toBe(BID);
    expect(sessionBidder(SECRET, 'socket', AUCTION, socket, NOW + 61)).toBeUndefined();
  });

  it('refuses a token of another kind, auction or secret, a changed one, and anything malformed', () => {
    const token = sessionToken(SECRET, 'socket', AUCTION, BID, NOW);
    expect(sessionBidder(SECRET, 'cookie', AUCTION, token, NOW)).toBeUndefined();
    expect(sessionBidder(SECRET, 'socket', 'c'.repeat(32), token, NOW)).toBeUndefined();
    expect(sessionBidder('another secret', 'socket', AUCTION, token, NOW)).toBeUndefined();
    const [bid, expires, mac] = token.split('.');
    expect(sessionBidder(SECRET, 'socket', AUCTION, `${'d'.repeat(32)}.${expires}.${mac}`, NOW)).toBeUndefined();
    expect(sessionBidder(SECRET, 'socket', AUCTION, `${bid}.${Number(expires) + 3600}.${mac}`, NOW)).toBeUndefined();
    for (const bad of [undefined, '', 'x', `${token}.x`, `${bid}.${expires}`, `${bid}.-1.${mac}`, `${bid}.1e3.${mac}`])
      expect(sessionBidder(SECRET, 'socket', AUCTION, bad, NOW), String(bad)).toBeUndefined();
  });
});
