import { randomBytes } from 'node:crypto';
import { type Received, type Refused, RoomClient, type RoomDocument, RoomError } from '../client/room-client.ts';
import type { Stage } from '../functions/domain/room/model.ts';
import type { IncomingMessage } from '../functions/room/generated/protocol-types.ts';
import { answerHelp } from './cli-help.ts';

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
 */
const USAGE = `usage: npm run -s room -- stage <link> <stage name or type>
       npm run -s room -- show <link>
       npm run -s room -- bid <participationUrl> <amount|accept>`;
answerHelp(
  'A command-line bidder and observer of the auction room: when a stage starts, the room now, a bid. Exit codes: 0 done, 1 refused or failed, 2 wrong arguments.',
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
 * The room's WebSocket as the auction's page (`<site>/<type path>/<auction id>`) names it in `data-socket`, or
 * undefined when the page names none (it is then on the page's own host) or cannot be read.
 */
async function socketOfPage(page: URL): Promise<string | undefined> {
  try {
    const res = await fetch(page, { headers: { accept: 'text/html' }, signal: AbortSignal.timeout(ANSWER_WITHIN_MS) });
    if (!res.ok) return undefined;
    const named = /<main id="room"[^>]*\sdata-socket="([^"]*)"/.exec(await res.text());
    return named ? unescapeHtml(named[1]) : undefined;
  } catch {
    return undefined;
  }
}

/** The room's WebSocket URL for a link: the auction id from its path, the bidder's parameters from its query. */
async function roomUrlOf(link: string): Promise<string> {
  let url: URL;
  try {
    url = new URL(link);
  } catch {
    return fail(`not a link: ${JSON.stringify(link)}\n${USAGE}`, 2);
  }
  const parts = url.pathname.split('/');
  const at = parts.findIndex((part) => /^[0-9a-f]{32}$/.test(part));
  if (at < 0) return fail(`no auction id in ${link}`, 2);
  const page = new URL(parts.slice(0, at + 1).join('/'), url);
  const endpoint = process.env.AGORA_ROOM_URL ?? (await socketOfPage(page)) ?? url.origin;
  return RoomClient.url(endpoint, parts[at], link);
}

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

const commands: Record<string, (args: string[]) => Promise<number>> = {
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
