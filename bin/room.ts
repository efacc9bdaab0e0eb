import { randomBytes } from 'node:crypto';
import {
  type Received,
  type Refused,
  RoomClient,
  type RoomDocument,
  RoomError,
  type RoomUpdate,
} from '../client/room-client.ts';
import type { Stage } from '../functions/domain/room/model.ts';
import type { IncomingMessage } from '../functions/room/generated/protocol-types.ts';
import { answerHelp } from '../lib/cli-help.ts';

/**
 * `npm run -s room -- <command>`: a small command-line client of the auction room (client/room-client.ts),
 * doing what a person does in the room's page. Any room link works: an auctionUrl (an observer) or a bidder's
 * participationUrl (that bidder). The room's WebSocket is found as the page finds it: the one the auction's page names
 * (`data-socket`: in AWS the room stack's, on another host), else `ws(s)://<the link's host>/room` (the local
 * gateway); AGORA_ROOM_URL overrides both.
 *   stage <link> <stage name or type>   the planned start (ISO) of that stage, e.g. dutch_40, sealedbid, announcement
 *   show <link>                         the room now: its stage, results, end and whether the results were posted
 *   bid <participationUrl> <amount|accept>
 *                                       bids as that bidder (accept: the current Dutch step's amount) and prints the
 *                                       room's answer; exits 1 when the room refuses it
 *   observe <link>                      watches as an observer through the broadcast (AppSync Events, as the page's
 *                                       observers do: the endpoint and key the auction's page names, else
 *                                       AGORA_ROOM_EVENTS "<url> <host> <key>"): the room now, then a line per change,
 *                                       until the results are posted (or the auction is cancelled)
 */
const USAGE = `usage: npm run -s room -- stage <link> <stage name or type>
       npm run -s room -- show <link>
       npm run -s room -- bid <participationUrl> <amount|accept>
       npm run -s room -- observe <link>`;
answerHelp(
  'A command-line bidder and observer of the auction room: when a stage starts, the room now, a bid, the room as it changes. Exit codes: 0 done, 1 refused or failed, 2 wrong arguments.',
  USAGE,
);
const ANSWER_WITHIN_MS = 15_000;

function fail(text: string, code = 1): never {
  console.error(text);
  process.exit(code);
}

const ENTITIES: Record<string, string> = { amp: '&', quot: '"', apos: "'", lt: '<', gt: '>' };
const unescapeHtml = (text: string) =>
  text.replace(/&(#\d+|\w+);/g, (whole, name: string) =>
    name.startsWith('#') ? String.fromCharCode(Number(name.slice(1))) : (ENTITIES[name] ?? whole),
  );

/**
 * What the auction's page (`<site>/<type path>/<auction id>`) names on its room (`data-socket`: the room's WebSocket,
 * in AWS on another host; `data-events`, `-host`, `-key`: the observers' broadcast), or nothing when it cannot be read.
 */
async function namedByPage(page: URL): Promise<Record<string, string>> {
  try {
    const res = await fetch(page, { headers: { accept: 'text/html' }, signal: AbortSignal.timeout(ANSWER_WITHIN_MS) });
    if (!res.ok) return {};
    const main = /<main id="room"[^>]*>/.exec(await res.text())?.[0] ?? '';
    return Object.fromEntries([...main.matchAll(/\sdata-([\w-]+)="([^"]*)"/g)].map((m) => [m[1], unescapeHtml(m[2])]));
  } catch {
    return {};
  }
}

/**
 * The room's WebSocket URL for a link (the auction id from its path, the bidder's parameters from its query, unless
 * `asObserver`) and what the auction's page names.
 */
async function roomOf(link: string, asObserver = false) {
  let url: URL;
  try {
    url = new URL(link);
  } catch {
    return fail(`not a link: ${JSON.stringify(link)}\n${USAGE}`, 2);
  }
  const parts = url.pathname.split('/');
  const at = parts.findIndex((part) => /^[0-9a-f]{32}$/.test(part));
  if (at < 0) return fail(`no auction id in ${link}`, 2);
  const named = await namedByPage(new URL(parts.slice(0, at + 1).join('/'), url));
  const endpoint = process.env.AGORA_ROOM_URL ?? named.socket ?? url.origin;
  return { url: RoomClient.url(endpoint, parts[at], asObserver ? undefined : link), named, origin: url.origin };
}

const roomUrlOf = async (link: string) => (await roomOf(link)).url;

/** A connection to the room whose every failure (refused, unreachable, an error answer, no answer) ends the command. */
async function connect(link: string) {
  const roomUrl = await roomUrlOf(link);
  const room = await RoomClient.open(roomUrl).catch((error: Refused | Error) => {
    if (error instanceof Error) return fail(`cannot reach the room at ${roomUrl.split('?')[0]}: ${error.message}`);
    const reason = typeof error.body === 'string' ? error.body : error.body?.errors?.[0]?.description;
    return fail(`the room refused the link (${error.status}): ${reason || 'no reason given'}`);
  });
  /** Sends `message` and waits for the first answer of `type` after it. */
  const ask = <T extends Received['type']>(message: IncomingMessage, type: T) =>
    room
      .ask(message, type, ANSWER_WITHIN_MS)
      .catch((error: Error) =>
        fail(
          error instanceof RoomError ? error.message : `no answer from the room within ${ANSWER_WITHIN_MS / 1000} s`,
        ),
      );
  return { ask, close: () => room.close() };
}

const currentStageOf = (document: RoomDocument): Stage | undefined =>
  document.stages[document.currentStage - document.stagesFrom];

/** One line of `observe`: where the room is, its results, and how it ended. */
const lineOf = ({ document, results, closed }: RoomUpdate) => ({
  version: document.version,
  stage: currentStageOf(document)?.name,
  results: document.results.map((r) => ({ bidder: r.bidderId ?? `Bidder #${r.bidderNumber}`, amount: r.amount })),
  ...(document.ended && { ended: document.ended.reason }),
  ...(results && { posted: results === 'posted' }),
  ...(closed && { closed }),
});

const commands: Record<string, (args: string[]) => Promise<number>> = {
  async observe([link]) {
    if (!link) fail(USAGE, 2);
    const room = await roomOf(link, true);
    const { env } = process;
    const events = room.named['events-key']
      ? { url: room.named.events, host: room.named['events-host'], apiKey: room.named['events-key'] }
      : (([url, host, apiKey]) => ({ url, host, apiKey }))((env.AGORA_ROOM_EVENTS ?? '').split(' '));
    if (!events.apiKey) return fail('no broadcast to observe: the page names none and AGORA_ROOM_EVENTS is unset');
    const url = events.url ?? `${room.origin.replace(/^http/, 'ws')}/event/realtime`;
    const watcher = await RoomClient.follow({ url, host: events.host, apiKey: events.apiKey }, room.url).catch(
      (error: Error) => fail(`cannot observe through ${url}: ${error.message}`),
    );
    let printed = 0;
    for (;;) {
      const next = await Promise.race([
        watcher.next((m): m is RoomUpdate => m.type === 'room', printed, 60_000).catch(() => undefined),
        watcher.closed.then(() => 'closed' as const),
      ]);
      if (next === 'closed') return fail('the broadcast closed the connection');
      if (!next) continue;
      printed = watcher.messages.indexOf(next) + 1;
      console.log(JSON.stringify(lineOf(next)));
      if (next.closed || (next.results === 'posted' && next.document.namesRevealed)) {
        watcher.close();
        return 0;
      }
    }
  },

  async stage([link, wanted]) {
    if (!link || !wanted) fail(USAGE, 2);
    const room = await connect(link);
    const { document } = await room.ask({ action: 'resume' }, 'room');
    room.close();
    const stage = document.stages.find((s) => s.name === wanted || s.type === wanted);
    if (!stage)
      return fail(`no stage ${wanted} in the room: ${[...new Set(document.stages.map((s) => s.type))].join(', ')}`);
    console.log(stage.start);
    return 0;
  },

  async show([link]) {
    if (!link) fail(USAGE, 2);
    const room = await connect(link);
    const { document, results, closed } = await room.ask({ action: 'resume' }, 'room');
    room.close();
    const summary = {
      stage: currentStageOf(document)?.name,
      results: document.results.map((r) => ({
        bidder: r.bidderId ?? `Bidder #${r.bidderNumber}`,
        amount: r.amount,
        ...(r.dutchWinner && { dutchWinner: true }),
      })),
      ...(document.ended && { ended: document.ended.reason }),
      ...(results && { posted: results === 'posted' }),
      ...(closed && { closed }),
      ...(document.me && { me: { label: document.me.label, mayBid: document.me.mayBid } }),
    };
    console.log(JSON.stringify(summary));
    return 0;
  },

  async bid([link, given]) {
    if (!link || !given) fail(USAGE, 2);
    if (given !== 'accept' && !Number.isFinite(Number(given))) fail(`not an amount: ${given}\n${USAGE}`, 2);
    const room = await connect(link);
    const { document } = await room.ask({ action: 'resume' }, 'room');
    const stage = currentStageOf(document);
    const dutchAmount = stage?.type === 'dutch' ? stage.amount : undefined;
    if (given === 'accept' && dutchAmount === undefined)
      fail(`accept: the room is in ${stage?.name}, not a Dutch step`);
    const amount = given === 'accept' ? dutchAmount! : Number(given);
    // A named bid: were it sent twice, the room would answer the first again, never take a second bid.
    const answer = await room.ask({ action: 'bid', amount, bidId: randomBytes(12).toString('base64url') }, 'bid');
    room.close();
    const { outcome, code, message } = answer;
    console.log(JSON.stringify({ outcome, amount: answer.amount, stage: stage?.name, ...(code && { code, message }) }));
    return outcome === 'refused' ? 1 : 0;
  },
};

const [command, ...args] = process.argv.slice(2);
const run = commands[command ?? ''];
if (!run) fail(`${command ? `unknown command ${JSON.stringify(command)}\n` : ''}${USAGE}`, 2);
process.exit(await run(args));
