import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { setLocal, startLocalRuntime } from '../../../functions/platform/config.ts';
import { freePort } from '../../../lib/local/dynamodb-local.ts';
import {
  activeBid,
  AUCTIONS,
  INSIDER,
  insiderBid,
  rectifyingAuction,
  tenderingInsider,
} from '../../support/auctions.ts';
import { client } from '../../support/http.ts';
import { RoomClient } from '../../../client/room-client.ts';
import { atStage, linkOf } from './room-helpers.ts';

/**
 * The room survives a crash: `npm start` (bin/serve.ts, a child process on this run's DynamoDB Local) is killed
 * (SIGKILL) in the middle of a sealed-bid stage and of an English round, then started again. The room resumes from
 * the table alone: every accepted bid kept, the results posted once. The local clock offset is not kept across the
 * restart: the test sets it again, as a sandbox user would.
 */
const ROOT = resolve(import.meta.dirname, '../../..');
const TABLE = `t_${randomBytes(6).toString('hex')}`;

interface Running {
  url: string;
  child: ChildProcess;
}

let running: Running | undefined;
let offsetMs = 0;
const api = client(() => running!.url);

async function start(): Promise<Running> {
  const port = await freePort();
  const child = spawn(join(ROOT, 'node_modules/.bin/tsx'), [join(ROOT, 'bin/serve.ts')], {
    cwd: mkdtempSync(join(tmpdir(), 'agora-crash-')),
    env: {
      ...process.env,
      PORT: String(port),
      TABLE_NAME: TABLE,
      LOG_FORMAT: 'json',
      AGORA_LOG_LEVEL: 'ERROR',
      BOTS_INTERVAL_MS: '1000',
      ROOM_BOT_INTERVAL_MS: '500',
    },
    stdio: 'ignore',
  });
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 240; i++) {
    const up = await fetch(`${url}/api/health`).then(
      (r) => r.status < 500,
      () => false,
    );
    if (up) break;
    await new Promise((r) => setTimeout(r, 250));
  }
  running = { url, child };
  await setOffset(offsetMs);
  // Document links the test signs (support/builders.ts aFileUrl) name this service's document service.
  startLocalRuntime();
  setLocal({ docserviceUrl: `${url}/api/docservice` });
  return running;
}

async function setOffset(ms: number) {
  offsetMs = ms;
  const res = await fetch(`${running!.url}/_local/clock`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ offsetMs: ms }),
  });
  expect(res.status).toBe(200);
}
/** Moves the service clock just past `instant` (never back). */
const passTo = (instant: string) => setOffset(Math.max(offsetMs, Date.parse(instant) - Date.now() + 1000));

function crash() {
  running?.child.kill('SIGKILL');
  running = undefined;
}

const open: RoomClient[] = [];
const connect = async (auctionId: string, link?: string) => {
  const c = await RoomClient.open(RoomClient.url(running!.url, auctionId, link));
  open.push(c);
  await c.ask({ action: 'resume' }, 'room');
  return c;
};

afterEach(() => {
  for (const c of open.splice(0)) c.close();
  crash();
  offsetMs = 0;
});

/** Polls `check` every 250 ms until it gives a value (at most a minute). */
async function until<T>(check: () => Promise<T | undefined | false>): Promise<T> {
  for (let i = 0; i < 240; i++) {
    const value = await check();
    if (value) return value;
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error('waited a minute in vain');
}

/**
 * Until the auction's room has posted its results (the auction left active.auction), reading through the API: at
 * most two minutes (a restarted server beside a full test run on a loaded machine once took more than one).
 */
async function settled(url: string) {
  let auction: any;
  for (let i = 0; i < 240; i++) {
    auction = (await api.get(url)).body.data;
    if (auction.status !== 'active.auction') return auction;
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error(
    `the results were never posted: ${JSON.stringify({ status: auction?.status, auctionPeriod: auction?.auctionPeriod })}`,
  );
}

describe('the auction room after a crash', { timeout: 180_000 }, () => {
  it('keeps a sealed bid accepted before the server was killed mid sealed-bid stage, and posts the results once', async () => {
    await start();
    const a = await tenderingInsider(api, { procurementMethodDetails: 'quick, accelerator=60' });
    const b1 = { ...(await insiderBid(api, a.id, 'broker2')), as: 'broker2' };
    const b2 = { ...(await insiderBid(api, a.id, 'broker')), as: 'broker' };
    await passTo(a.auction.enquiryPeriod.endDate);
    const url = `${INSIDER}/${a.id}`;
    // The service's own chronograph moves the auction to active.auction; its room bot plans the room.
    const { startDate } = (
      await until(async () => {
        const current = (await api.get(url)).body.data;
        return current.status === 'active.auction' && current;
      })
    ).auctionPeriod;
    await passTo(new Date(Date.parse(startDate) - 3000).toISOString());
    const link1 = await linkOf(api, INSIDER, a.id, b1);
    const bidder1 = await until(() => connect(a.id, link1).catch(() => undefined));
    const bidder2 = await connect(a.id, await linkOf(api, INSIDER, a.id, b2));

    const dutch = await atStage(bidder1, 'dutch_0');
    expect(await bidder1.ask({ action: 'bid', amount: dutch.amount }, 'bid')).toMatchObject({ outcome: 'accepted' });
    const preSealed = bidder1.room!.document.stages.find((x) => x.type === 'pre-sealedbid')!;
    await passTo(new Date(Date.parse(preSealed.start) - 2000).toISOString());
    await atStage(bidder2, 'sealedbid');
    expect(await bidder2.ask({ action: 'bid', amount: dutch.amount + 5000 }, 'bid')).toMatchObject({
      outcome: 'sealed',
    });

    crash();
    await start();
    const auction = await settled(url);
    expect(auction.status).toBe('active.qualification');
    const awards = (await api.get(`${url}/awards`)).body.data;
    expect(awards.filter((x: any) => x.status === 'pending')).toEqual([
      expect.objectContaining({ bid_id: b2.id, value: expect.objectContaining({ amount: dutch.amount + 5000 }) }),
    ]);
    // The audit is filed after the results are posted (room/lifecycle.ts), so it may come a moment later: once.
    const audits = async () =>
      ((await api.get(`${url}/documents`)).body.data as any[]).filter((d) => d.title === `audit_${a.id}.json`);
    await until(async () => (await audits()).length > 0);
    expect(await audits()).toHaveLength(1);
  });

  it('keeps an English bid accepted before the server was killed mid round, and posts the results once', async () => {
    await start();
    // Accelerated 20 times: a round lasts 9 s, time enough to bid on a busy machine.
    const a = await rectifyingAuction(api, { procurementMethodDetails: 'quick, accelerator=20' });
    const url = `${AUCTIONS}/${a.id}`;
    await passTo(a.auction.rectificationPeriod.endDate);
    await until(async () => (await api.get(url)).body.data.status === 'active.tendering');
    const b1 = { ...(await activeBid(api, a.id, 1, 'broker2')), as: 'broker2' };
    const b2 = { ...(await activeBid(api, a.id, 2, 'broker')), as: 'broker' };
    await passTo(a.auction.enquiryPeriod.endDate);
    const { startDate } = (
      await until(async () => {
        const current = (await api.get(url)).body.data;
        return current.status === 'active.auction' && current;
      })
    ).auctionPeriod;
    await passTo(new Date(Date.parse(startDate) - 3000).toISOString());
    const link1 = await linkOf(api, AUCTIONS, a.id, b1);
    const bidder1 = await until(() => connect(a.id, link1).catch(() => undefined));
    await connect(a.id, await linkOf(api, AUCTIONS, a.id, b2));

    const round = await atStage(bidder1, 'round_1');
    expect(await bidder1.ask({ action: 'bid', amount: round.amount }, 'bid')).toMatchObject({ outcome: 'accepted' });

    crash(); // in the pause or the round the accepted bid opened
    await start();
    const auction = await settled(url);
    expect(auction.status).toBe('active.qualification');
    const awards = (await api.get(`${url}/awards`)).body.data;
    expect(awards).toEqual([
      expect.objectContaining({ bid_id: b1.id, status: 'pending', value: expect.objectContaining({ amount: 101000 }) }),
    ]);
  });
});
