import { afterEach, describe, expect, it } from 'vitest';
import { clockOf } from '../../support/auctions.ts';
import { client } from '../../support/http.ts';
import { useService } from '../../support/service.ts';
import { RoomClient, type Refused } from '../../../client/room-client.ts';
import { insiderInRoom } from '../room/room-helpers.ts';

/**
 * The room page's HTTP side: the participation link verified before the terms are shown, the session cookie's
 * attributes, the socket token only for a valid cookie of this auction, and the room's handshake with that token.
 */
const service = useService();
const api = client(() => service.url);
const clock = clockOf(service);
afterEach(() => clock.reset());

const form = (link: string) => {
  const q = new URL(link).searchParams;
  return new URLSearchParams({ bidder_id: q.get('bidder_id')!, signature: q.get('signature')! }).toString();
};
const agree = (link: string) =>
  fetch(new URL(link).href.split('?')[0], {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: form(link),
  });

describe('room page login and session', { timeout: 120_000 }, () => {
  it('shows the terms for a genuine link, and a 403 page for a forged one, without a session', async () => {
    const a = await insiderInRoom(api, clock, service);
    const terms = await fetch(a.link);
    expect(terms.status).toBe(200);
    expect(terms.headers.get('set-cookie')).toBeNull();
    expect(terms.headers.get('content-security-policy')).toContain("script-src 'self'");
    const html = await terms.text();
    expect(html).toContain('I agree');
    // What the bidder agrees to bid in, not a hex id alone: the auction's title, organizer, value and start.
    expect(html).toContain(`<dd id="terms-title">${a.auction.title}</dd>`);
    expect(html).toContain(`<dd id="terms-organizer">${a.auction.procuringEntity.name}</dd>`);
    expect(html.replace(/\s/g, ' ')).toMatch(/<dd id="terms-value">[\d ]+,00 грн · UAH [\d,]+\.00<\/dd>/);
    expect(html).toMatch(
      /<dd id="terms-start">\d+ [^<]+ \d{4} р\. о \d\d:\d\d · \d+ [A-Z][a-z]+ \d{4} at \d\d:\d\d<\/dd>/,
    );
    expect(html).not.toMatch(/<script(?![^>]*\bsrc=)/); // no inline script
    const forged = new URL(a.link);
    forged.searchParams.set('signature', `${forged.searchParams.get('signature')!.slice(0, -6)}AAAA==`);
    expect((await fetch(forged)).status).toBe(403);
    const forgedPost = await agree(forged.href);
    expect(forgedPost.status).toBe(403);
    expect(forgedPost.headers.get('set-cookie')).toBeNull();
  });

  it('gives an HttpOnly SameSite=Strict cookie for this auction only, and socket tokens the room accepts', async () => {
    const a = await insiderInRoom(api, clock, service);
    const agreed = await agree(a.link);
    expect(agreed.status).toBe(303);
    expect(agreed.headers.get('location')).toBe(`/insider-auctions/${a.id}`);
    const cookie = agreed.headers.get('set-cookie')!;
    expect(cookie).toMatch(
      new RegExp(`^agora_room=[^;]+; Path=/insider-auctions/${a.id}; Max-Age=\\d+; HttpOnly; SameSite=Strict$`),
    );
    const pair = cookie.split(';')[0];

    const session = (headers: Record<string, string> = {}) =>
      fetch(`${service.url}/insider-auctions/${a.id}/session`, { headers }).then((r) => r.json());
    expect(await session()).toEqual({});
    expect(await session({ cookie: 'agora_room=forged.1.x' })).toEqual({});
    const { bidderId, token } = await session({ cookie: pair });
    expect(bidderId).toBe(a.b1.id);

    // The token opens the room as this bidder; a second one (a second tab) is the same bidder.
    const url = (t: string) =>
      `${service.url.replace(/^http/, 'ws')}/room?auction_id=${a.id}&token=${encodeURIComponent(t)}`;
    const tab1 = await RoomClient.open(url(token));
    const tab2 = await RoomClient.open(url((await session({ cookie: pair })).token));
    const [one, two] = await Promise.all([
      tab1.ask({ action: 'resume' }, 'room'),
      tab2.ask({ action: 'resume' }, 'room'),
    ]);
    expect(one.document.me?.bidderId).toBe(a.b1.id);
    expect(two.document.me).toEqual(one.document.me);
    tab1.close();
    tab2.close();

    // Another auction's cookie is nothing here; a forged or stale token is refused at the handshake, never an observer.
    const other = await insiderInRoom(api, clock, service);
    const otherPair = (await agree(other.link)).headers.get('set-cookie')!.split(';')[0];
    expect(
      await fetch(`${service.url}/insider-auctions/${a.id}/session`, { headers: { cookie: otherPair } }).then((r) =>
        r.json(),
      ),
    ).toEqual({});
    const refused = (u: string) =>
      RoomClient.open(u).then(
        (c) => {
          c.close();
          throw new Error('connected');
        },
        (r: Refused) => r,
      );
    expect(await refused(url(`${token.slice(0, -2)}xx`))).toMatchObject({ status: 403 });
    await clock.passTo(new Date(Date.now() + clock.offset + 120_000).toISOString());
    expect(await refused(url(token))).toMatchObject({ status: 403, body: { errors: [{ name: 'token' }] } });
  });

  it('serves the page with its own files under a strict policy, and 404s for anything else', async () => {
    const id = '0'.repeat(32);
    const page = await fetch(`${service.url}/texas-auctions/${id}`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-security-policy')).toBe(
      "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'",
    );
    const html = await page.text();
    expect([...html.matchAll(/(?:src|href)="([^"]+)"/g)].map(([, u]) => u)).toEqual([
      '/room-page/room.css',
      '/room-page/icon.svg',
      '/room-page/room.js',
    ]);
    for (const [file, type] of [
      ['room.js', 'text/javascript'],
      ['room.css', 'text/css'],
      ['icon.svg', 'image/svg+xml'],
    ]) {
      const res = await fetch(`${service.url}/room-page/${file}`);
      expect(res.status, file).toBe(200);
      expect(res.headers.get('content-type')).toContain(type);
    }
    expect((await fetch(`${service.url}/room-page/..%2Fpage.ts`)).status).toBe(404);
    expect((await fetch(`${service.url}/texas-auctions/not-an-id`)).status).toBe(404);
  });
});
