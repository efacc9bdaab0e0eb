import { appendFileSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { aFileUrl } from '../../support/builders.ts';
import { client } from '../../support/http.ts';
import { useService } from '../../support/service.ts';
import { useChangeStream } from '../../support/webhooks.ts';

/**
 * The conformance suite: the original services' recorded exchanges (test/conformance/<family>.json, written from
 * the upstream `.http` recordings by test/conformance/extract.py) replayed in their order through Agora's API.
 *
 * Each recorded request is sent as recorded: its role, method and path, its body as is, with three translations a
 * replay needs (never a change of what the client said): the original's ids and tokens become the ones Agora gave
 * (learnt from the answers, where the recording shows them), the dates move by as much as the replay runs after the
 * recording (an auction "5 minutes ahead" stays 5 minutes ahead), and a document's link is one Agora's document
 * service signed for the same hash. The answer is compared on the status (and the errors of a refusal), the set of
 * fields of `data`, and every value that is not an id, a date or a token.
 *
 * Marks in the fixture: `before` (steps that bring the state the original's test code forced: requests, bots, the
 * sandbox clock), `gap` (a field the protocol work is adding: run as expected to fail, so it fails loudly once
 * closed), `unreachable` (why the exchange cannot be replayed), `ours` (fields Agora adds on purpose, with why),
 * `asJson` (a multipart upload of the original, sent as the JSON document Agora takes).
 */

export interface Exchange {
  file: string;
  as: string | null;
  method: string;
  path: string;
  contentType?: string;
  /** The owner's token, sent in `X-Access-Token`. */
  token?: string;
  body?: unknown;
  status: number;
  errors?: unknown[];
  fields?: string[];
  values?: Record<string, unknown>;
  access?: string[];
  ids?: Record<string, string>;
  at?: string;
  before?: Step[];
  gap?: string;
  unreachable?: string;
  note?: string;
  /** Fields of `data` Agora answers beyond the original's, and why: `{field: reason}`. */
  ours?: Record<string, string>;
  /** Fields or leaves that differ on purpose (`errors`: the refusal's text), each with why: `{path: reason}`. */
  differs?: Record<string, string>;
  /**
   * A multipart file upload of the original (its body not recorded), sent as the JSON document Agora takes: these
   * fields, the file one of Agora's document service signed for the hash (interface.md: documents are links).
   */
  asJson?: Record<string, unknown>;
}

/** A step of the replay that is not itself a recording: a request, a bot run, or the sandbox clock moved. */
export type Step =
  | {
      as?: string;
      method: string;
      path: string;
      /** The request's `data`, or `bodyOf` another exchange's (the same body the original's test code sent). */
      body?: unknown;
      bodyOf?: string;
      /** The original's ids this step's answer gives ours for: `{"data.id": "<recorded id>"}`. */
      learn?: Record<string, string>;
    }
  | { bot: string }
  /**
   * The original's test fixtures reused ids and tokens across objects (every landlease bid had one token): the first
   * recorded id or token is to stand for what the second already stands for.
   */
  | { remap: Record<string, string> }
  /**
   * The auction system's results (not recorded: the originals' test code posted them): every bid `GET /auction`
   * shows, with the amounts given by bid (the original's ids) and `others` for the rest.
   */
  | { results: string; amounts: Record<string, number>; others: number }
  /** The sandbox clock moved just past a date the API shows: `{path, at}` (e.g. an auction's enquiry end). */
  | { clockTo: { path: string; at: string } };

export interface Fixture {
  source: string;
  recorded: number;
  exchanges: Exchange[];
}

export const loadFixture = (family: string): Fixture =>
  JSON.parse(readFileSync(new URL(`../../conformance/${family}.json`, import.meta.url), 'utf8'));

const ISO = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2})(\.\d+)?([+-]\d{2}:\d{2}|Z)?$/;
const KYIV_WINTER = '+02:00';

/** Milliseconds of an ISO date-time; one without a zone is Kyiv time, as the originals read it (winter offset). */
const instant = (text: string) => {
  const m = ISO.exec(text)!;
  return Date.parse(`${m[1]}${(m[2] ?? '').slice(0, 4)}${m[3] ?? KYIV_WINTER}`);
};

/** The same wall-clock form (zone or none, fraction or none) moved by `ms`, in Kyiv time. */
function shifted(text: string, ms: number): string {
  const m = ISO.exec(text)!;
  const moved = new Date(instant(text) + ms);
  const kyiv = new Intl.DateTimeFormat('sv-SE', {
    timeZone: 'Europe/Kyiv',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
    timeZoneName: 'longOffset',
  }).format(moved);
  const [day, time, zone] = kyiv.split(' ');
  const offset = zone!.replace('GMT', '') || '+00:00';
  const fraction = m[2] ? `.${String(moved.getMilliseconds()).padStart(3, '0')}${m[2].slice(4)}` : '';
  return `${day}T${time}${fraction}${m[3] ? offset : ''}`;
}

const DAY = /^\d{4}-\d{2}-\d{2}$/;

/** A calendar day moved by as many whole days as `ms` holds. */
const shiftedDay = (day: string, ms: number) =>
  new Date(Date.parse(`${day}T12:00:00Z`) + Math.round(ms / 86_400_000) * 86_400_000).toISOString().slice(0, 10);

const at = (value: any, path: string): unknown =>
  path.split('.').reduce((v, k) => (v === undefined || v === null ? undefined : v[k]), value);

/** Leaves of a value by dotted path (as the fixture's `values`). */
function leaves(value: unknown, path = '', out: Record<string, unknown> = {}): Record<string, unknown> {
  if (Array.isArray(value)) {
    for (const [n, v] of value.entries()) leaves(v, path ? `${path}.${n}` : `${n}`, out);
  } else if (value && typeof value === 'object')
    for (const [k, v] of Object.entries(value)) leaves(v, path ? `${path}.${k}` : k, out);
  else out[path] = value;
  return out;
}

export interface Family {
  name: string;
  /** The recorded API prefix and where Agora serves it (bounce: recorded at /api/2.5/assets, served at /api/2.4). */
  paths?: [string, string][];
  /** Fields Agora adds to every answer of the family on purpose (`{field: why}`). */
  ours?: Record<string, string>;
  /** Keys of the original's test code that Agora has under another name (`bot` → a bot key of ours). */
  roles?: Record<string, string>;
  /** Leaves (by their last key) or fields that differ on purpose in every answer of the family, with why. */
  differs?: Record<string, string>;
}

/** Registers one `it` per recorded exchange of the family, run in order against one service. */
export function replayFamily(family: Family): void {
  const fixture = loadFixture(family.name);
  const byFile = new Map(fixture.exchanges.map((e) => [e.file, e]));
  const service = useService({ changeStream: true });
  // The listings read the journal, which the table's stream feeds: a listing is asked once it has taken every change.
  const journal = useChangeStream();
  const api = client(() => service.url);
  const known = new Map<string, string>();
  let clockOffset = 0;
  let shift: number | undefined;
  let lastAt = 0;

  const translate = (text: string) => {
    let out = text;
    for (const [from, to] of family.paths ?? []) out = out.split(from).join(to);
    return out.replace(/[0-9a-f]{32}/g, (id) => known.get(id) ?? id);
  };

  /** The body as the client sent it, with ids, dates and document links made the replay's own. */
  const translateBody = (body: unknown, dates = true): unknown => {
    const walk = (v: unknown): unknown => {
      if (typeof v === 'string') {
        // Moved as far as the service clock (sandbox offset included) runs after the recording; a date the client
        // took as "now" (a few seconds after the moment the answer is dated from) stays now, never ahead of the service.
        if (dates && shift !== undefined && ISO.test(v)) {
          const now = Date.now() + clockOffset;
          const moved = instant(v) + shift;
          return moved > now && moved < now + 60_000 ? shifted(v, now - 1_000 - instant(v)) : shifted(v, shift);
        }
        if (dates && shift !== undefined && DAY.test(v)) return shiftedDay(v, shift);
        return translate(v);
      }
      if (Array.isArray(v)) return v.map(walk);
      if (v && typeof v === 'object') {
        const o = Object.fromEntries(Object.entries(v).map(([k, x]) => [k, walk(x)]));
        // A file of the original's document service: the same hash, signed by ours.
        if (typeof o.url === 'string' && typeof o.hash === 'string' && !o.url.startsWith(service.url))
          o.url = aFileUrl(o.hash as string);
        return o;
      }
      return v;
    };
    return walk(body);
  };

  async function send(
    as: string | null,
    method: string,
    path: string,
    body: unknown,
    contentType?: string,
    token?: string,
  ) {
    const raw = body && typeof body === 'object' && 'raw' in body ? String((body as any).raw) : undefined;
    const data = raw === undefined && body !== undefined ? body : undefined;
    const headers: Record<string, string> = {
      ...(contentType && { 'content-type': contentType }),
      ...(token && { 'x-access-token': translate(token) }),
    };
    return api.call(method, translate(path), undefined, {
      // A recorded request without a key is sent without one: the originals let anyone read, and so does Agora.
      as: as === null ? undefined : (family.roles?.[as] ?? as),
      headers,
      raw: raw ?? (data === undefined ? undefined : JSON.stringify(data)),
    });
  }

  async function runStep(step: Step) {
    if ('bot' in step) return void (await service.bot(step.bot));
    if ('results' in step) {
      const bids = ((await send('auction', 'GET', step.results, undefined)).body.data.bids ?? []) as { id: string }[];
      const amountOf = (id: string) =>
        Object.entries(step.amounts).find(([recorded]) => known.get(recorded) === id)?.[1] ?? step.others;
      const data = { bids: bids.map((b) => ({ id: b.id, value: { amount: amountOf(b.id) } })) };
      const res = await send('auction', 'POST', step.results, { data });
      if (res.status >= 400) throw new Error(`results ${step.results}: ${JSON.stringify(res.body)}`);
      return;
    }
    if ('remap' in step) {
      for (const [recorded, as] of Object.entries(step.remap)) known.set(recorded, known.get(as) ?? as);
      return;
    }
    if ('clockTo' in step) {
      const shown = at((await send('broker', 'GET', step.clockTo.path, undefined)).body, step.clockTo.at);
      if (typeof shown !== 'string') throw new Error(`no date at ${step.clockTo.at} of ${step.clockTo.path}`);
      clockOffset = Math.max(clockOffset, Date.parse(shown) - Date.now() + 1000);
      return void (await service.setClockOffset(clockOffset));
    }
    const body = step.bodyOf ? (byFile.get(step.bodyOf)!.body as any).data : step.body;
    const res = await send(
      step.as ?? 'broker',
      step.method,
      step.path,
      body === undefined ? undefined : { data: translateBody(body) },
    );
    if (res.status >= 400) throw new Error(`step ${step.method} ${step.path}: ${JSON.stringify(res.body)}`);
    for (const [path, recorded] of Object.entries(step.learn ?? {})) {
      const mine = at(res.body, path);
      if (typeof mine === 'string') known.set(recorded, mine);
    }
  }

  /** What differs between the recorded answer and ours (empty: conforms). */
  function differences(ex: Exchange, status: number, body: any): string[] {
    const out: string[] = [];
    if (status !== ex.status)
      out.push(`status ${status}, recorded ${ex.status}: ${JSON.stringify(body).slice(0, 400)}`);
    if (ex.errors && !ex.differs?.errors) {
      const norm = (errors: any[]) =>
        errors.map((e) => ({
          location: e.location,
          name: e.name,
          description: Array.isArray(e.description) ? e.description : [e.description],
        }));
      if (JSON.stringify(norm(body?.errors ?? [])) !== JSON.stringify(norm(ex.errors)))
        out.push(`errors ${JSON.stringify(body?.errors)}, recorded ${JSON.stringify(ex.errors)}`);
      return out;
    }
    if (status >= 400) return out;
    const data = body?.data;
    const ours = Array.isArray(data)
      ? [...new Set(data.flatMap((d: object) => (d && typeof d === 'object' ? Object.keys(d) : [])))]
      : data && typeof data === 'object'
        ? Object.keys(data)
        : [];
    const differs = { ...family.differs, ...ex.differs };
    const added = { ...family.ours, ...ex.ours, ...differs };
    const missing = (ex.fields ?? []).filter((f) => !ours.includes(f) && !(f in differs));
    const extra = ours.filter((f) => !(ex.fields ?? []).includes(f) && !(f in added));
    if (missing.length) out.push(`fields missing: ${missing.join(', ')}`);
    if (extra.length) out.push(`fields the original did not show: ${extra.join(', ')}`);
    const mine = leaves(data);
    for (const [path, value] of Object.entries(ex.values ?? {})) {
      const exempt = Object.keys(differs).some((k) => path === k || path.startsWith(`${k}.`));
      if (exempt || path.split('.').pop()! in (family.differs ?? {})) continue;
      if (mine[path] !== value && !(typeof value === 'number' && Number(mine[path]) === value))
        out.push(`${path}: ${JSON.stringify(mine[path])}, recorded ${JSON.stringify(value)}`);
    }
    for (const key of ex.access ?? []) if (!body?.access?.[key]) out.push(`access.${key} missing`);
    return out;
  }

  /** Maps the original's ids and tokens to ours, where both answers show them. */
  function learn(ex: Exchange, body: any) {
    for (const [path, recorded] of Object.entries(ex.ids ?? {})) {
      const mine = at(body, path);
      if (typeof mine === 'string' && !known.has(recorded)) known.set(recorded, mine);
    }
  }

  describe(`${family.name}: the recordings of ${fixture.source} (${fixture.recorded})`, () => {
    // A recording that cannot be replayed is not a test of ours: it is listed once, and must say why.
    const unreachable = fixture.exchanges.filter((ex) => ex.unreachable);
    if (unreachable.length)
      it(`leaves out ${unreachable.length} recording(s) that cannot be replayed, each with its reason`, () => {
        for (const ex of unreachable) expect(ex.unreachable, ex.file).toMatch(/\w{3,}.*\w{3,}/);
      });
    for (const ex of fixture.exchanges) {
      const title = `${ex.file}: ${ex.method} ${ex.path.replace(/\?.*/, '')} → ${ex.status}`;
      if (ex.unreachable) continue;
      const run = async () => {
        for (const step of ex.before ?? []) await runStep(step);
        // The original answered at `at`: the body's dates move so that its "now" is the service's now. An answer
        // dated before the one before it shows a date of its fixture, not the moment: the shift stays.
        if (ex.at && instant(ex.at) >= lastAt) {
          shift = Date.now() + clockOffset - instant(ex.at);
          lastAt = instant(ex.at);
        }
        if (ex.method === 'GET' && /\/(lots|assets|auctions)(\?|$)/.test(ex.path)) await journal.drained();
        const res = await send(
          ex.as,
          ex.method,
          ex.path,
          ex.asJson
            ? { data: translateBody(ex.asJson) }
            : ex.body === undefined
              ? undefined
              : 'raw' in (ex.body as object)
                ? ex.body
                : { ...(ex.body as object), data: translateBody((ex.body as any).data) },
          ex.asJson ? undefined : ex.contentType,
          ex.token,
        );
        learn(ex, res.body);
        const found = differences(ex, res.status, res.body);
        // CONFORMANCE_OUT=<dir>: each exchange's differences written down, for the closing note.
        if (process.env.CONFORMANCE_OUT)
          appendFileSync(
            `${process.env.CONFORMANCE_OUT}/${family.name}.jsonl`,
            `${JSON.stringify({ file: ex.file, gap: ex.gap, found })}\n`,
          );
        expect(found, found.join('\n')).toEqual([]);
      };
      if (ex.gap) it.fails(`${title} (gap: ${ex.gap})`, run);
      else it(title, run);
    }
  });
}
