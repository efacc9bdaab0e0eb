import { answerHelp } from '../lib/cli-help.ts';
import { canonicalJson, linksAsPaths, type Revision, verifyChain } from '../functions/domain/kernel/history.ts';

/**
 * `npm run history -- verify <object URL>`: checks an object's change log from the public API alone, as any
 * client could. It reads every revision (`<object URL>/revisions`, page by page), checks that each one's `hash` is
 * the SHA-256 of its canonical JSON and that each names the one before (`previousHash`), replays the `changes` from
 * `{}` and compares the result with the object's GET. With `--anchor <n>:<hash>` (a head the platform kept: a GET's
 * `X-Revision` and `X-Revision-Hash`, a change feed row's `revision` and `revisionHash`, a webhook's `seq` and `hash`)
 * revision n must have that hash: a history rewritten since, however consistently its hashes were recomputed, does
 * not lead through it. Exit 0: the chain holds; 1: a break (each one printed); 2: a usage or network problem. The API
 * key: `AGORA_KEY` (the Basic user name), by default the dev key `broker`.
 */
const USAGE =
  'usage: npm run history -- verify <object URL> [--anchor <n>:<hash>]   (e.g. http://127.0.0.1:6543/api/0.1/lots/<id>)';
answerHelp(
  "Checks an object's change log from the public API: each revision's hash and link, the replayed changes against its GET, and with --anchor that it leads through a head you kept (a GET's X-Revision and X-Revision-Hash). Exit codes: 0 the chain holds, 1 a break, 2 usage or network. AGORA_KEY: the API key (default broker).",
  USAGE,
);
const [command, target, ...options] = process.argv.slice(2);
const anchorText = options[0] === '--anchor' ? options[1] : undefined;
const anchor = /^(\d+):([0-9a-f]{64})$/.exec(anchorText ?? '');
if (command !== 'verify' || !target || (options.length && (options.length !== 2 || !anchor))) {
  console.error(USAGE);
  process.exit(2);
}
const url = target.replace(/\/+$/, '');
const authorization = `Basic ${Buffer.from(`${process.env.AGORA_KEY ?? 'broker'}:`).toString('base64')}`;

async function get(address: string): Promise<{ data: unknown; next_page?: { offset: string } }> {
  const res = await fetch(address, { headers: { authorization } });
  const text = await res.text();
  if (!res.ok) throw new Error(`${address} answered ${res.status}: ${text.slice(0, 300)}`);
  return JSON.parse(text);
}

/** Every revision from `offset` on, following `next_page` until a page comes back empty. */
async function revisionsFrom(offset: number): Promise<Revision[]> {
  const out: Revision[] = [];
  for (let at = offset; ; ) {
    const page = await get(`${url}/revisions?limit=1000&offset=${at}`);
    const data = page.data as Revision[];
    if (!data.length) return out;
    out.push(...data);
    at = Number(page.next_page?.offset ?? at + data.length);
  }
}

try {
  const revisions = await revisionsFrom(0);
  let object = (await get(url)).data;
  // A change may land between the reads: read what came after, then the object again (a few times at most).
  for (let i = 0; i < 3; i++) {
    const more = await revisionsFrom(revisions.length);
    if (!more.length) break;
    revisions.push(...more);
    object = (await get(url)).data;
  }
  const { breaks, view } = verifyChain(revisions);
  // The log keeps the service's own document links as paths; GET answers them absolute.
  const base = url.slice(0, url.indexOf('/api/'));
  if (view !== undefined && canonicalJson(view) !== canonicalJson(linksAsPaths(object, base)))
    breaks.push({ seq: revisions.length, reason: "the revisions replayed do not give the object's view" });
  if (anchor) {
    const [, n, hash] = anchor;
    const at = revisions[Number(n) - 1];
    if (!at)
      breaks.push({ seq: Number(n), reason: `the history has ${revisions.length} revisions: none for the anchor` });
    else if (at.hash !== hash)
      breaks.push({ seq: Number(n), reason: `the history does not lead to the anchor (its hash here is ${at.hash})` });
  }
  if (breaks.length) {
    for (const b of breaks) console.log(`break at revision ${b.seq}: ${b.reason}`);
    console.log(`${url}: ${revisions.length} revisions, ${breaks.length} break(s)`);
    process.exit(1);
  }
  const head = revisions.at(-1)?.hash ?? '';
  const replayed =
    view === undefined ? ' (a change too large to keep: not replayed past it)' : ', replayed to its view';
  const anchored = anchor ? `, through the anchor ${anchor[1]}` : '';
  console.log(`${url}: ${revisions.length} revisions, chain verified${replayed}${anchored}; head ${head}`);
} catch (error) {
  console.error(`${url}: ${(error as Error).message}`);
  process.exit(2);
}
