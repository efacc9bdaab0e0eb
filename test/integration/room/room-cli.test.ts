import { execFile, spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clockOf, INSIDER, insiderBid, tenderingInsider } from '../../support/auctions.ts';
import { client } from '../../support/http.ts';
import { useService } from '../../support/service.ts';
import { linkOf } from './room-helpers.ts';

/**
 * The command-line bidder (`npm run room`, bin/room.ts) against the room of a running service: it says the room's
 * answers and exits non-zero when the room refuses (an observer's link, a bid outside its stage, a forged link).
 */
const ROOT = resolve(import.meta.dirname, '../../..');
const service = useService();
const api = client(() => service.url);
const clock = clockOf(service);

function room(...args: string[]): Promise<{ code: number; out: string; err: string }> {
  return new Promise((done) => {
    execFile(
      'npx',
      ['tsx', 'bin/room.ts', ...args],
      { cwd: ROOT, env: { ...process.env, AGORA_URL: service.url }, timeout: 60_000 },
      (error, out, err) => done({ code: error ? Number((error as { code?: number }).code ?? 1) : 0, out, err }),
    );
  });
}
const answer = (out: string) => JSON.parse(out.trim().split('\n').at(-1)!);

let auctionUrl: string;
let bidderLink: string;
beforeAll(async () => {
  // Real time, as the README's sale (no test mode): a Dutch step lasts 5 minutes, the first pause 30 s.
  const a = await tenderingInsider(api, { mode: undefined });
  const bidder = { ...(await insiderBid(api, a.id, 'broker2')), as: 'broker2' };
  await insiderBid(api, a.id, 'broker');
  await clock.passTo(a.auction.enquiryPeriod.endDate);
  await service.bot('chronograph');
  await service.bot('room');
  auctionUrl = (await api.get(`${INSIDER}/${a.id}`)).body.data.auctionUrl;
  bidderLink = await linkOf(api, INSIDER, a.id, bidder);
}, 60_000);
afterAll(() => clock.reset());

describe('npm run room: the command-line bidder', { timeout: 120_000 }, () => {
  it('prints a stage planned start, and refuses a stage the room does not have', async () => {
    const sealed = await room('stage', auctionUrl, 'sealedbid');
    expect(sealed.code, sealed.err).toBe(0);
    expect(sealed.out.trim()).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?\+0[23]:00$/);
    const dutch = await room('stage', bidderLink, 'dutch');
    expect(Date.parse(dutch.out.trim())).toBeLessThan(Date.parse(sealed.out.trim()));
    const none = await room('stage', auctionUrl, 'english');
    expect(none.code).toBe(1);
    expect(none.err).toContain('no stage english');
  });

  it("an observer's link cannot bid: the room's refusal is printed and the exit code is 1", async () => {
    const r = await room('bid', auctionUrl, '150000');
    expect(r.code).toBe(1);
    expect(answer(r.out)).toMatchObject({
      outcome: 'refused',
      amount: 150000,
      code: 'observer',
      message: 'You are an observer and cannot bid',
    });
  });

  it('a bid outside its stage is refused; accept needs a Dutch step', async () => {
    const pause = await room('bid', bidderLink, '150000');
    expect(pause.code).toBe(1);
    expect(answer(pause.out)).toMatchObject({ outcome: 'refused', stage: 'pause' });
    expect(answer(pause.out).message).toEqual(expect.any(String));
    const accept = await room('bid', bidderLink, 'accept');
    expect(accept.code).toBe(1);
    expect(accept.err).toContain('accept: the room is in pause, not a Dutch step');
  });

  it('a forged link is refused at the handshake, a bad amount before connecting', async () => {
    const forged = new URL(bidderLink);
    forged.searchParams.set('signature', `${forged.searchParams.get('signature')!.slice(0, -6)}AAAA==`);
    const r = await room('bid', forged.href, '150000');
    expect(r.code).toBe(1);
    expect(r.err).toContain('the room refused the link (403)');
    const bad = await room('bid', bidderLink, 'lots');
    expect(bad.code).toBe(2);
    expect(bad.err).toContain('not an amount');
  });

  it('accepts the Dutch step once the clock is in it (exit 0)', async () => {
    const start = (await room('stage', bidderLink, 'dutch_10')).out.trim();
    await clock.passTo(new Date(Date.parse(start) + 60_000).toISOString());
    const r = await room('bid', bidderLink, 'accept');
    expect(r.code, r.err).toBe(0);
    expect(answer(r.out)).toMatchObject({ outcome: 'accepted', stage: 'dutch_10' });
    const show = await room('show', auctionUrl);
    expect(answer(show.out)).toMatchObject({ stage: 'pre-sealedbid', results: [{ amount: answer(r.out).amount }] });
  });
  it('observes through the broadcast the page names: the room now first, and a usage error without a link', async () => {
    const usage = await room('observe');
    expect(usage.code).toBe(2);
    expect(usage.err).toContain('observe <link>');
    // The room as it is, printed as soon as the observer has read it (the sale runs in real time: stopped there).
    const r = await new Promise<string>((done, fail) => {
      const cli = spawn('npx', ['tsx', 'bin/room.ts', 'observe', auctionUrl], { cwd: ROOT, env: process.env });
      let out = '';
      cli.stdout.on('data', (d: Buffer) => {
        out += d.toString('utf8');
        if (out.includes('\n')) {
          cli.kill();
          done(out);
        }
      });
      cli.on('close', (code) => fail(new Error(`observe exited ${code} before a line: ${out}`)));
    });
    expect(answer(r)).toMatchObject({
      version: expect.any(Number),
      stage: expect.any(String),
      results: expect.any(Array),
    });
  });
});
