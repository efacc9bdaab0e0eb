import { existsSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve, dirname } from 'node:path';
import { transformSync } from 'esbuild';
import { describe, expect, it } from 'vitest';
import { tsFiles } from '../support/source-files.ts';
import { roomLambdas } from '../../functions/room/lambdas.ts';

/**
 * The dependency rules of docs/DESIGN.md (§1), one `it` each. A rule fails with the offending `file -> import` list.
 * Imports are read from the text: static `import`/`export ... from`, side-effect `import '...'` and dynamic `import('...')`.
 */
const ROOT = resolve(import.meta.dirname, '../..');

const files = (dir: string) => tsFiles(dir);

const rel = (file: string) => relative(ROOT, file);

/** The `imports` aliases of package.json (`#domain/*` -> `functions/domain/`). */
const ALIASES = Object.entries(
  JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).imports as Record<string, string>,
).map(([alias, target]) => [alias.replace(/\*$/, ''), target.replace(/^\.\//, '').replace(/\*$/, '')] as const);

const IMPORT = /(?:^\s*(?:import|export)\s[^'"]*?from\s+|^\s*import\s+|\bimport\s*\(\s*)['"]([^'"]+)['"]/gm;

/** Imports of a file, resolved to paths relative to the project (bare packages kept as they are). */
function importsOf(file: string, { values = false } = {}): string[] {
  const text = readFileSync(file, 'utf8');
  // `import type` / `export type` load nothing at run time.
  const matches = [...text.matchAll(IMPORT)].filter(
    ([statement]) => !values || !/^\s*(import|export)\s+type\s/.test(statement),
  );
  return matches.map(([, spec]) => {
    const alias = ALIASES.find(([prefix]) => spec.startsWith(prefix));
    if (alias) return alias[1] + spec.slice(alias[0].length);
    if (spec.startsWith('.')) return rel(resolve(dirname(file), spec));
    return spec;
  });
}

/** `file -> import` for every import of the files under `dirs` that `forbidden` matches. */
function offenders(dirs: string[], forbidden: (imported: string, file: string) => boolean): string[] {
  return dirs
    .map((d) => join(ROOT, d))
    .flatMap((d) => (statSync(d).isDirectory() ? files(d) : [d]))
    .flatMap((f) =>
      importsOf(f)
        .filter((i) => forbidden(i, rel(f)))
        .map((i) => `${rel(f)} -> ${i}`),
    );
}

/**
 * Every source file reachable from `entries` through relative and aliased imports under `within` (`functions/`;
 * `values`: only the imports that load something at run time, type-only ones aside).
 */
function closure(entries: string[], { within = /^functions\//, values = false } = {}): Set<string> {
  const seen = new Set<string>();
  const queue = entries.map(rel);
  while (queue.length) {
    const file = queue.pop()!;
    if (seen.has(file) || !file.endsWith('.ts') || !existsSync(join(ROOT, file))) continue;
    seen.add(file);
    queue.push(...importsOf(join(ROOT, file), { values }).filter((i) => within.test(i)));
  }
  return seen;
}

/**
 * The room's use cases (functions/room/): their ports come in a context (RoomStore, RoomPorts, RoomAuctions:
 * domain/room/ports.ts), so they import no store, no AWS SDK and no wiring; the Lambda files wire them (context.ts,
 * auctions.ts).
 */
const ROOM_USE_CASES = ['room.ts', 'bidding.ts', 'connection.ts', 'lifecycle.ts'].map((f) => `functions/room/${f}`);

/**
 * The layer a file is in, as a bid's and a transition's paths are followed: the Lambdas and use cases
 * (`functions/room`), the room's rules (`functions/domain/room`), the rest of the domain, the runtime, the store, and
 * below them all `functions/platform` (the configuration, which everything may read and which reads only the
 * environment; the request clock, the telemetry names and the transient-error test).
 */
function layerOf(file: string): string {
  if (file.startsWith('functions/domain/'))
    return file.startsWith('functions/domain/room/') ? 'functions/domain/room' : 'functions/domain';
  return file.split('/').slice(0, 2).join('/');
}

/**
 * Every import path from `entry` (value imports, within functions/) whose layers go back into one already left: the
 * path `a/x -> b/y -> a/z` leaves `a` for `b`, then goes back up into `a`.
 */
function pathsBackUp(entry: string): string[] {
  const found = new Set<string>();
  const walk = (file: string, layers: string[], path: string[]) => {
    const layer = layerOf(file);
    if (layers.at(-1) !== layer && layers.slice(0, -1).includes(layer)) {
      found.add([...path, file].join(' -> '));
      return;
    }
    if (path.includes(file)) return;
    const next = layers.at(-1) === layer ? layers : [...layers, layer];
    for (const i of importsOf(join(ROOT, file), { values: true }))
      if (i.startsWith('functions/') && i.endsWith('.ts')) walk(i, next, [...path, file]);
  };
  walk(entry, [], []);
  return [...found];
}

describe('dependency rules (docs/DESIGN.md)', () => {
  it('keeps the domain pure: it imports only the domain, node built-ins, date-fns, ajv, json-schema-to-ts types and fast-json-patch (no store, http, http-kit, runtime, AWS SDK, middy, aws-lambda)', () => {
    const allowed = /^(functions\/domain\/|node:|date-fns|@date-fns\/tz|ajv|json-schema-to-ts$|fast-json-patch$)/;
    expect(offenders(['functions/domain'], (i) => !allowed.test(i))).toEqual([]);
  });

  it('keeps the environment out of the domain: no process.env in functions/domain', () => {
    const readers = files(join(ROOT, 'functions/domain'))
      .filter((f) => /\bprocess\.env\b/.test(readFileSync(f, 'utf8')))
      .map(rel);
    expect(readers).toEqual([]);
  });

  it('keeps settings out of domain modules: nothing under functions/domain exports a mutable binding (`export let`)', () => {
    // A module-level binding the runtime reassigns is configuration by the back door: pass the value as an argument.
    const mutable = files(join(ROOT, 'functions/domain'))
      .filter((f) => {
        const text = readFileSync(f, 'utf8');
        if (/^\s*export\s+(?:let|var)\b/m.test(text)) return true;
        const reassignable = new Set([...text.matchAll(/^(?:let|var)\s+(\w+)/gm)].map(([, name]) => name));
        return [...text.matchAll(/^\s*export\s*\{([^}]*)\}/gm)].some(([, names]) =>
          names.split(',').some((n) => reassignable.has(n.trim().split(/\s+as\s+/)[0])),
        );
      })
      .map(rel);
    expect(mutable).toEqual([]);
  });

  it('reads the environment only in functions/platform/config.ts', () => {
    const readers = files(join(ROOT, 'functions'))
      .filter((f) => /\bprocess\.env\b/.test(readFileSync(f, 'utf8')))
      .map(rel)
      .filter((f) => f !== 'functions/platform/config.ts');
    expect(readers).toEqual([]);
  });

  it('keeps bots off the request stack: nothing a bot loads imports functions/http/ or functions/http-kit/', () => {
    const reachable = closure(files(join(ROOT, 'functions/bots')));
    const fromBots = [...reachable].flatMap((f) =>
      importsOf(join(ROOT, f))
        .filter((i) => /^functions\/(http|http-kit)\//.test(i))
        .map((i) => `${f} -> ${i}`),
    );
    expect(fromBots).toEqual([]);
  });

  it('keeps the kernel below the protocol models: functions/domain/kernel/ imports only the kernel and the validators generated from the request schemas (never domain/protocol/, which stands on it)', () => {
    const allowed = /^functions\/domain\/(kernel|schemas\/generated)\//;
    expect(offenders(['functions/domain/kernel'], (i) => i.startsWith('functions/') && !allowed.test(i))).toEqual([]);
  });

  it('keeps the socket on its own: functions/room/ imports only the domain, the store, the runtime, the platform and itself', () => {
    const allowed = /^functions\/(domain|store|runtime|platform|room)\//;
    expect(offenders(['functions/room'], (i) => i.startsWith('functions/') && !allowed.test(i))).toEqual([]);
  });

  it('keeps the room page off the store and the socket: functions/room-page/ imports only the domain, the runtime, the platform, the HTTP kit and itself', () => {
    const allowed = /^functions\/(domain|runtime|platform|http-kit|room-page)\//;
    expect(offenders(['functions/room-page'], (i) => i.startsWith('functions/') && !allowed.test(i))).toEqual([]);
  });

  it("keeps the socket and the page apart: nothing either loads, followed transitively, is a file of the other (sessions and links are the domain's)", () => {
    const crossing = (from: string, to: string) =>
      [...closure(files(join(ROOT, from)))].filter((f) => f.startsWith(`${to}/`)).map((f) => `${from} loads ${f}`);
    expect([
      ...crossing('functions/room', 'functions/room-page'),
      ...crossing('functions/room-page', 'functions/room'),
    ]).toEqual([]);
  });

  it("runs the room's use cases over their ports: room.ts, bidding.ts, connection.ts and lifecycle.ts import no store, no AWS SDK and none of the wiring (context.ts, auctions.ts, ports.ts, kit.ts)", () => {
    const wiring = /^(functions\/store\/|@aws-sdk\/|functions\/room\/(context|auctions|ports|kit)\.ts$)/;
    expect(offenders(ROOM_USE_CASES, (i) => wiring.test(i))).toEqual([]);
  });

  it("keeps the auction side out of the room's message routes: no route Lambda loads lifecycle.ts or auctions.ts (only the timer and the bot plan, close and post)", () => {
    const routes = roomLambdas.filter((l) => l.kind === 'route').map((l) => join(ROOT, `functions/${l.handler}.ts`));
    expect([...closure(routes)].filter((f) => /^functions\/room\/(lifecycle|auctions)\.ts$/.test(f))).toEqual([]);
  });

  it('keeps test code out of the Lambdas: nothing in functions/ imports test/ (the in-memory room store is test/support/memory-room-store.ts)', () => {
    expect(offenders(['functions'], (i) => i.startsWith('test/'))).toEqual([]);
  });

  it('follows a bid and a transition down: from room/bid.ts and room/transition.ts no import path goes back into a folder it has left (Lambda -> use case -> domain rules / ports -> store)', () => {
    expect([...pathsBackUp('functions/room/bid.ts'), ...pathsBackUp('functions/room/transition.ts')]).toEqual([]);
  });

  it('keeps the room off the HTTP stack: nothing a room Lambda loads imports functions/http/ (and the socket never loads functions/http-kit/)', () => {
    const fromRoom = [...closure(files(join(ROOT, 'functions/room')))].flatMap((f) =>
      importsOf(join(ROOT, f))
        .filter((i) => /^functions\/(http|http-kit)\//.test(i))
        .map((i) => `${f} -> ${i}`),
    );
    const fromPage = [...closure(files(join(ROOT, 'functions/room-page')))].flatMap((f) =>
      importsOf(join(ROOT, f))
        .filter((i) => i.startsWith('functions/http/'))
        .map((i) => `${f} -> ${i}`),
    );
    expect([...fromRoom, ...fromPage]).toEqual([]);
  });

  it('starts every bot run through runtime/bot-run.ts (botRun: wired, observed, validators loaded): nothing else calls observeBotRun', () => {
    const callers = files(join(ROOT, 'functions'))
      .map(rel)
      .filter((f) => !['functions/runtime/bot-run.ts', 'functions/runtime/observability.ts'].includes(f))
      .filter((f) =>
        /\bobserveBotRun\s*\(|import\s*\{[^}]*\bobserveBotRun\b/.test(readFileSync(join(ROOT, f), 'utf8')),
      );
    expect(callers).toEqual([]);
  });

  it('builds the auctions contexts in one place: in functions/, only runtime/contexts.ts loads the working-day calendar (runtime/calendar.ts) to hand it to commands (besides the routes of the calendar itself and the coverage metric of the chronograph); a document context is made only in runtime/documents.ts (DocumentPorts.context)', () => {
    const loaders = files(join(ROOT, 'functions'))
      .map(rel)
      // The calendar's own routes (read and change it) and the chronograph (its coverage metric) load it too.
      .filter((f) => f !== 'functions/runtime/contexts.ts' && !f.startsWith('functions/http/calendar/'))
      .filter((f) => f !== 'functions/bots/chronograph.ts')
      .filter((f) => importsOf(join(ROOT, f), { values: true }).includes('functions/runtime/calendar.ts'));
    // A document context starts with nothing attached: its literal is the one place that writes `attached: []`.
    const makers = files(join(ROOT, 'functions'))
      .map(rel)
      .filter((f) => f !== 'functions/runtime/documents.ts')
      .filter((f) => /\battached:\s*\[\s*\]/.test(readFileSync(join(ROOT, f), 'utf8')));
    expect([...loaders, ...makers]).toEqual([]);
  });

  it('names every principal the service acts as itself: a principal is written as a literal only in functions/domain/kernel/principal.ts (AUCTION_ROOM) and functions/auth/ (ANONYMOUS)', () => {
    // A principal carries its accreditation levels; a log line's caller (the socket kit's bidder or observer) does not.
    const literal = /\{\s*name:[^{}]*\brole:\s*'[^{}]*\blevels:/;
    const makers = files(join(ROOT, 'functions'))
      .map(rel)
      .filter((f) => f !== 'functions/domain/kernel/principal.ts' && !f.startsWith('functions/auth/'))
      .filter((f) => literal.test(readFileSync(join(ROOT, f), 'utf8')));
    expect(makers).toEqual([]);
  });

  it('keeps the store out of the HTTP kit: functions/http-kit/ never imports functions/store/', () => {
    expect(offenders(['functions/http-kit'], (i) => i.startsWith('functions/store/'))).toEqual([]);
  });

  it('keeps every arrow downhill: the store never imports the runtime (configuration, clock and telemetry are functions/platform/, below both)', () => {
    expect(offenders(['functions/store'], (i) => i.startsWith('functions/runtime/'))).toEqual([]);
  });

  it('keeps functions/platform/ a leaf: it imports only itself and the domain (never the store, the runtime or a Lambda)', () => {
    expect(
      offenders(
        ['functions/platform'],
        (i) => i.startsWith('functions/') && !/^functions\/(platform|domain)\//.test(i),
      ),
    ).toEqual([]);
  });

  it('keeps the room off the bots: functions/room/ never imports functions/bots/ (the work-index runner both use is runtime/work-index.ts)', () => {
    expect(offenders(['functions/room'], (i) => i.startsWith('functions/bots/'))).toEqual([]);
  });

  it('keeps the route table below the handlers: routes.ts imports nothing of functions/http/ (the docs files it ships sit beside it)', () => {
    expect(offenders(['functions/routes.ts'], (i) => i.startsWith('functions/http/'))).toEqual([]);
  });

  it("keeps lib/ below bin/: nothing in lib/ imports bin/ (the CLIs' help answer is lib/cli-help.ts)", () => {
    expect(offenders(['lib'], (i) => i.startsWith('bin/'))).toEqual([]);
  });

  it('keeps the route table out of the Lambdas: in functions/ only the OpenAPI document imports routes.ts (the build hands each Lambda its rules)', () => {
    expect(
      offenders(['functions'], (i, file) => i === 'functions/routes.ts' && !file.startsWith('functions/openapi/')),
    ).toEqual([]);
  });

  it('keeps the route table below the OpenAPI document: routes.ts imports nothing of functions/openapi/ (which reads the table)', () => {
    expect(offenders(['functions/routes.ts'], (i) => i.startsWith('functions/openapi/'))).toEqual([]);
  });

  it("keeps the bot table out of the Lambdas: nothing in functions/ imports bots.ts (a bot's report type is runtime/work-index.ts')", () => {
    expect(offenders(['functions'], (i) => i === 'functions/bots.ts')).toEqual([]);
  });

  it("names every body check by a literal: `checkWith` is only called as `checkWith('<name>', ...)`, the land-parcel validators read only in validate-schema-properties.ts (lib/build.ts ships each Lambda the validators its modules name)", () => {
    const definitions = 'functions/domain/kernel/validation.ts';
    const offending = files(join(ROOT, 'functions'))
      .filter((f) => rel(f) !== definitions)
      .flatMap((f) => {
        // Comments and import lists dropped (no renaming there): what is left is code, where every use must be a call
        // with a literal.
        const source = transformSync(readFileSync(f, 'utf8'), { loader: 'ts' }).code;
        const renamed = /\bcheckWith\s+as\b/.test(source) ? ['checkWith renamed'] : [];
        const code = source.replace(/^import\s[\s\S]*?from\s+['"][^'"]+['"];?$/gm, '');
        const checks = [...code.matchAll(/\bcheckWith\b(?!\(\s*['"][A-Za-z0-9_]+['"])/g)].map(() => 'checkWith');
        const parcels =
          rel(f) === 'functions/domain/schemas/validate-schema-properties.ts'
            ? []
            : [...code.matchAll(/\blandParcelValidators\b/g)].map(() => 'landParcelValidators');
        return [...renamed, ...checks, ...parcels].map((use) => `${rel(f)}: ${use}`);
      });
    expect(offending).toEqual([]);
  });

  it('keeps lib/ out of functions/: nothing in functions/ imports lib/', () => {
    expect(offenders(['functions'], (i) => i === 'lib' || i.startsWith('lib/'))).toEqual([]);
  });

  it('keeps the protocol client out of the service: nothing in functions/ or lib/ imports client/', () => {
    expect(offenders(['functions', 'lib'], (i) => i.startsWith('client/'))).toEqual([]);
  });

  it("keeps the protocol client on the protocol: client/ imports of functions/ only the room's generated message types and the room document's types, never code", () => {
    const allowed = /^(functions\/room\/generated\/protocol-types\.ts|functions\/domain\/room\/model\.ts)$/;
    expect(offenders(['client'], (i) => i.startsWith('functions/') && !allowed.test(i))).toEqual([]);
    const loaded = files(join(ROOT, 'client')).flatMap((f) =>
      importsOf(f, { values: true })
        .filter((i) => i.startsWith('functions/'))
        .map((i) => `${rel(f)} -> ${i}`),
    );
    expect(loaded).toEqual([]);
  });

  it('lets lib/ import from functions/ only the data tables, never handler code (but the build, a process of its own, that compiles them)', () => {
    const tables = [
      'functions/routes.ts',
      'functions/bots.ts',
      'functions/room/lambdas.ts',
      'functions/store/table-design.ts',
      'functions/platform/telemetry.ts',
      'functions/room-page/local-observers-key.ts',
    ];
    const hosting = files(join(ROOT, 'lib'))
      .map(rel)
      .filter((f) => f !== 'lib/build.ts');
    expect(
      offenders(
        hosting,
        (i) => i.startsWith('functions/') && !tables.includes(i) && !i.startsWith('functions/domain/kernel/principal'),
      ),
    ).toEqual([]);
  });

  it('synthesizes without the domain: all the CDK app (bin/agora.ts) loads of functions/, followed transitively, is the route, bot, room Lambda and table tables and the type descriptors the route table is written from', () => {
    // The build (lib/build.ts: the handlers, the domain, the OpenAPI document) runs as a separate process.
    const data = [
      /^functions\/(routes|bots|room\/lambdas)\.ts$/,
      /^functions\/store\/table-design\.ts$/,
      /^functions\/platform\/telemetry\.ts$/,
      /^functions\/swagger-ui-files\.ts$/,
      // The type catalogs and descriptors (API base, style, flags), and the catalogs' error for a type not served.
      /^functions\/domain\/(auctions|assets)\/(types\/)?([\w-]+\/)?(catalog|descriptor)\.ts$/,
      /^functions\/domain\/kernel\/errors\.ts$/,
    ];
    const loaded = [...closure(['bin/agora.ts'], { within: /^(bin|lib|functions)\//, values: true })];
    expect(loaded).toContain('functions/routes.ts');
    expect(loaded.filter((f) => f.startsWith('functions/') && !data.some((d) => d.test(f)))).toEqual([]);
  });

  it('has no import loops in functions/ (type-only imports too): each file stands above what it imports', () => {
    const sources = files(join(ROOT, 'functions')).map(rel);
    const graph = new Map(
      sources.map((f) => [f, importsOf(join(ROOT, f)).filter((i) => i.startsWith('functions/') && i.endsWith('.ts'))]),
    );
    const loops: string[] = [];
    const state = new Map<string, 'open' | 'done'>();
    const visit = (file: string, path: string[]) => {
      if (state.get(file) === 'done') return;
      if (state.get(file) === 'open') {
        loops.push([...path.slice(path.indexOf(file)), file].join(' -> '));
        return;
      }
      state.set(file, 'open');
      for (const next of graph.get(file) ?? []) visit(next, [...path, file]);
      state.set(file, 'done');
    };
    for (const file of sources) visit(file, []);
    expect(loops).toEqual([]);
  });
});
