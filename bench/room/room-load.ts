import { randomBytes } from 'node:crypto';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { it } from 'vitest';
import WebSocket, { WebSocketServer } from 'ws';
import { startRoomBot } from '../../lib/local/room-server.ts';
import { documentClient, tableName } from '../../functions/store/client.ts';
import { activeBid, AUCTIONS, clockOf, rectifyingAuction } from '../../test/support/auctions.ts';
import { client } from '../../test/support/http.ts';
import { useService } from '../../test/support/service.ts';
import { linkOf } from '../../test/integration/room/room-helpers.ts';

/**
 * The auction room under load, on this machine: one landlease auction with BIDDERS bidder connections and OBSERVERS
 * observer connections; bidders take turns bidding each new round's amount as soon as it opens (BIDS bids). For each
 * accepted bid: the time from the bid sent to each connection holding the new document (p50, p99 over all of them),
 * bids lost (acknowledged but not in the final document), winners. Beside it, in the same run: the raw cost of one
 * conditional write to DynamoDB Local and of one WebSocket send on loopback. Clients and server share this process.
 */
const BIDDERS = Number(process.env.ROOM_BIDDERS ?? 100);
const OBSERVERS = Number(process.env.ROOM_OBSERVERS ?? 1000);
const BIDS = Number(process.env.ROOM_BIDS ?? 20);
const service = useService();
const api = client(() => service.url);
const clock = clockOf(service);

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? Math.round(s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] * 100) / 100 : Number.NaN;
};

interface Conn {
  ws: WebSocket;
  /** version -> when it arrived */
  seen: Map<number, number>;
  last?: any;
}
function open(url: string): Promise<Conn> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url);
    const conn: Conn = { ws, seen: new Map() };
    ws.on('message', (data) => {
      const m = JSON.parse(data.toString('utf8'));
      if (m.type === 'room') {
        conn.last = m;
        if (!conn.seen.has(m.document.version)) conn.seen.set(m.document.version, performance.now());
      } else if (m.type === 'bid') ws.emit('bid-answer', m);
    });
    ws.once('open', () => resolve(conn));
    ws.once('error', reject);
  });
}
const stage = (doc: any) => doc.stages[doc.currentStage - doc.stagesFrom];

it('room load', async () => {
  stopBotLater(startRoomBot(500, () => {}));
  // Raw costs first, alone: a conditional write, and a WebSocket send on loopback.
  const writes: number[] = [];
  const key = { PK: `BENCH#${randomBytes(4).toString('hex')}`, SK: '#STATE' };
  for (let v = 0; v < 200; v++) {
    const t = performance.now();
    await documentClient().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: key,
        UpdateExpression: 'SET version = :next',
        ConditionExpression: 'attribute_not_exists(version) OR version = :v',
        ExpressionAttributeValues: { ':v': v - 1, ':next': v },
      }),
    );
    writes.push(performance.now() - t);
  }
  const sends = await rawSends(200);

  // One landlease auction with BIDDERS bids, its room planned a few seconds before its start.
  const a = await rectifyingAuction(api, { procurementMethodDetails: 'quick, accelerator=20' });
  await clock.passTo(a.auction.rectificationPeriod.endDate);
  await service.bot('chronograph');
  const bids = [];
  // At most 90 bids: the chronograph's move of a tendering auction to active.auction writes every bid in one
  // transaction (100 items at most), so 100 bids never reach the room; extra bidder connections are second tabs.
  for (let i = 0; i < Math.min(BIDDERS, 90); i++)
    bids.push({ ...(await activeBid(api, a.id, i + 1, 'broker2')), as: 'broker2' });
  await clock.passTo(a.auction.tenderPeriod.endDate);
  await service.bot('chronograph');
  await clock.passTo(a.auction.enquiryPeriod.endDate);
  await service.bot('chronograph');
  const { startDate } = (await api.get(`${AUCTIONS}/${a.id}`)).body.data.auctionPeriod;
  await clock.passTo(new Date(Date.parse(startDate) - 60_000).toISOString());
  await service.bot('room');
  const base = `${service.url.replace(/^http/, 'ws')}/room?auction_id=${a.id}`;
  const bidders: Conn[] = [];
  const links = [];
  for (const bid of bids) links.push(new URL(await linkOf(api, AUCTIONS, a.id, bid)).searchParams);
  for (let i = 0; i < BIDDERS; i++) {
    const q = links[i % links.length];
    bidders.push(await open(`${base}&bidder_id=${q.get('bidder_id')}&hash=${q.get('hash')}`));
  }
  const observers: Conn[] = [];
  for (let i = 0; i < OBSERVERS; i++) observers.push(await open(base));
  const all = [...bidders, ...observers];
  const resumed = performance.now();
  for (const c of all) c.ws.send(JSON.stringify({ action: 'resume' }));
  while (all.some((c) => !c.last)) await new Promise((r) => setTimeout(r, 50));
  const connectMs = performance.now() - resumed;
  await clock.passTo(new Date(Date.parse(startDate) - 500).toISOString());

  // Bidders take turns; each bid is the open round's amount, sent as soon as that round shows.
  const latencies: number[] = [];
  const acknowledged: number[] = [];
  for (let n = 0; n < BIDS; n++) {
    const who = bidders[n % bidders.length];
    let round: any;
    for (let wait = 0; wait < 400; wait++) {
      const doc = who.last?.document;
      round = doc && stage(doc);
      if (round?.type === 'english' && !acknowledged.includes(round.amount)) break;
      await new Promise((r) => setTimeout(r, 25));
    }
    const version = who.last.document.version;
    const sent = performance.now();
    const answer: any = await new Promise((resolve) => {
      who.ws.once('bid-answer', resolve);
      who.ws.send(JSON.stringify({ action: 'bid', amount: round.amount }));
    });
    if (answer.outcome !== 'accepted') continue;
    acknowledged.push(answer.amount);
    const next = version + 1;
    const deadline = performance.now() + 30_000;
    while (all.some((c) => !c.seen.has(next)) && performance.now() < deadline)
      await new Promise((r) => setTimeout(r, 10));
    for (const c of all) if (c.seen.has(next)) latencies.push(c.seen.get(next)! - sent);
  }
  // The end: no bid in the next round; every connection holds the final document.
  await clock.passTo(new Date(Date.now() + clock.offset + 600_000).toISOString());
  const deadline = performance.now() + 120_000;
  while (all.some((c) => !c.last?.document.ended || !c.last?.document.namesRevealed) && performance.now() < deadline)
    await new Promise((r) => setTimeout(r, 100));
  const final = observers[0].last.document;
  const inFinal = new Set(final.stages.filter((s: any) => s.type === 'english').map((s: any) => s.amount));
  const lost = acknowledged.filter((x) => !inFinal.has(x)).length;
  const same = all.every((c) => JSON.stringify(c.last.document.results) === JSON.stringify(final.results));
  const winners = final.results.filter((r: any) => r.amount === Math.max(...final.results.map((x: any) => x.amount)));
  for (const c of all) c.ws.close();
  console.log(
    [
      `ROOM LOAD: ${BIDDERS} bidder connections (${bids.length} bids) + ${OBSERVERS} observers on one landlease auction, ${acknowledged.length} accepted bids`,
      `  connect+resume of all: ${Math.round(connectMs)} ms`,
      `  bid sent -> every connection holds the new document: p50 ${pct(latencies, 50)} ms, p99 ${pct(latencies, 99)} ms, max ${pct(latencies, 100)} ms (${latencies.length} deliveries, ${acknowledged.length * all.length} expected)`,
      `  bids lost: ${lost}; winners: ${winners.length}; every connection's final results equal: ${same}`,
      `  raw conditional write (DynamoDB Local UpdateItem): p50 ${pct(writes, 50)} ms, p99 ${pct(writes, 99)} ms`,
      `  raw WebSocket send on loopback (send -> received): p50 ${pct(sends, 50)} ms, p99 ${pct(sends, 99)} ms`,
    ].join('\n'),
  );
  stopBot();
});

let stopBot = () => {};
const stopBotLater = (stop: () => void) => {
  stopBot = stop;
};

async function rawSends(n: number): Promise<number[]> {
  const wss = new WebSocketServer({ port: 0, host: '127.0.0.1' });
  await new Promise((r) => wss.once('listening', r));
  const { port } = wss.address() as { port: number };
  const server = new Promise<WebSocket>((r) => wss.once('connection', r));
  const ws = new WebSocket(`ws://127.0.0.1:${port}`);
  await new Promise((r) => ws.once('open', r));
  const peer = await server;
  const out: number[] = [];
  for (let i = 0; i < n; i++) {
    const t = performance.now();
    await new Promise<void>((resolve) => {
      ws.once('message', () => resolve());
      peer.send(JSON.stringify({ type: 'room', i }));
    });
    out.push(performance.now() - t);
  }
  ws.close();
  wss.close();
  return out;
}
