import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { transformSync, type Metafile } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildLambdas, lambdaBundles, ROOT, type ValidatorNames } from '../../lib/build.ts';
import { bundleParts } from '../../lib/lambda-bundles.ts';
import { openApiDocument } from '../../functions/openapi/document.ts';
import { bots } from '../../functions/bots.ts';
import { roomLambdas } from '../../functions/room/lambdas.ts';
import { docserviceAccess, routes } from '../../functions/routes.ts';
import { bundleBudgetKb, ROOM_POSTING_BUDGET_KB, WRITE_BUDGET_KB } from '../../lib/bundle-budgets.ts';

/**
 * What each Lambda's bundle holds (esbuild's metafile of the one build CDK ships), and that a bundle serves with the
 * route rules the build gave it. The bundled test project proves the whole service works from the bundles; this
 * proves what they leave out.
 */
let dir: string;
let meta: Metafile;
let validators: ValidatorNames;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'agora-bundles-meta-'));
  const built = await buildLambdas({ outdir: dir, metafile: true });
  meta = built.metafile!;
  validators = built.validators;
  // Beside the bundles only what the Lambda runtime provides, as in the bundled local mode.
  mkdirSync(join(dir, 'node_modules'));
  symlinkSync(join(ROOT, 'node_modules', '@aws-sdk'), join(dir, 'node_modules', '@aws-sdk'), 'dir');
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A bundle's handler module (a bundle built per auction type is `<handler>.<type>`: lib/lambda-bundles.ts). */
const handlerOf = (bundle: string) => bundleParts(bundle).handler;
/** The routes a bundle serves: its handler's, of its own type when it is built per type. */
const routesOf = (bundle: string) => {
  const { handler, type } = bundleParts(bundle);
  return routes.filter((r) => r.handler === handler && (type === undefined || r.type === type));
};
const httpBundles = () => lambdaBundles().filter((b) => routesOf(b).length > 0);
/** The source files in a Lambda's bundle. */
const inputsOf = (bundle: string): string[] => {
  const output = Object.entries(meta.outputs).find(([file]) => file.endsWith(`/${bundle}/index.mjs`));
  if (!output) throw new Error(`no bundle for ${bundle}`);
  return Object.keys(output[1].inputs);
};
/** A route that touches documents, or a room Lambda that files the audit document of an ended room. */
const touchesDocuments = (bundle: string) =>
  routesOf(bundle).some((r) => docserviceAccess(r)) || roomLambdas.some((l) => l.handler === bundle && l.posts);

/**
 * Invokes a bundle's handler (or, with `source`, the TypeScript module as is) in a fresh Node process, as a Lambda
 * cold start does: its answer and what it logged.
 */
function invoke(
  bundle: string,
  routeKey: string,
  path: string,
  source = false,
  request: { body?: unknown; role?: string; bundles?: string } = {},
) {
  const event = {
    version: '2.0',
    routeKey,
    rawPath: path,
    headers: request.body === undefined ? {} : { 'content-type': 'application/json' },
    ...(request.body !== undefined && { body: JSON.stringify(request.body) }),
    requestContext: {
      http: { method: routeKey.split(' ')[0], path },
      requestId: 'r1',
      domainName: 'localhost',
      ...(request.role && { authorizer: { lambda: { name: request.role, role: request.role, levels: '1' } } }),
    },
  };
  const module = source
    ? join(ROOT, 'functions', `${handlerOf(bundle)}.ts`)
    : join(request.bundles ?? dir, bundle, 'index.mjs');
  const script = `const { handler } = await import(${JSON.stringify(pathToFileURL(module).href)});
    const answer = await handler(${JSON.stringify(event)}, { awsRequestId: 'r1', functionName: 'f' });
    console.log('ANSWER ' + JSON.stringify(answer));`;
  const run = spawnSync(
    process.execPath,
    [...(source ? ['--import', 'tsx'] : []), '--input-type=module', '-e', script],
    {
      cwd: ROOT,
      env: { PATH: process.env.PATH, AWS_LAMBDA_FUNCTION_NAME: 'f', AWS_REGION: 'eu-central-1', TABLE_NAME: 't' },
      encoding: 'utf8',
    },
  );
  const line = run.stdout.split('\n').find((l) => l.startsWith('ANSWER '));
  if (!line) throw new Error(`the bundle did not answer: ${run.stderr}`);
  return { answer: JSON.parse(line.slice('ANSWER '.length)), log: run.stdout + run.stderr };
}

/** A bot, or a room Lambda that posts results (built as a bot: lib/build.ts). */
const isBot = (bundle: string) =>
  bots.some((b) => b.handler === bundle) || roomLambdas.some((l) => l.handler === bundle && l.posts);
/** A Lambda that checks bodies: a bot, or one with a route that can be sent a body (the kit loads validators only then). */
const takesBodies = (bundle: string) =>
  isBot(bundle) || routesOf(bundle).some((r) => ['POST', 'PUT', 'PATCH'].includes(r.method));
/** The validator names the source modules of a Lambda's bundle check with (comments dropped), read here on their own. */
const checkedIn = new Map<string, string[]>();
const namesChecked = (bundle: string): string[] => {
  const names = inputsOf(bundle)
    .filter((i) => i.startsWith('functions/') && i.endsWith('.ts'))
    .flatMap((i) => {
      if (!checkedIn.has(i)) {
        const code = transformSync(readFileSync(join(ROOT, i), 'utf8'), { loader: 'ts' }).code;
        const found = [...code.matchAll(/checkWith\(\s*["']([^"']+)["']/g)].map((m) => m[1]);
        checkedIn.set(i, i.endsWith('/validate-schema-properties.ts') ? [...found, 'landParcels'] : found);
      }
      return checkedIn.get(i)!;
    });
  return [...new Set(names)].sort();
};
/** The types a bundle's routes serve (`type`; `''` for none, and for a bot). */
const typesOf = (bundle: string): string[] => {
  const types = new Set(routesOf(bundle).map((r) => r.type ?? ''));
  return types.size > 0 ? [...types] : [''];
};
const allTypes = [...new Set(routes.flatMap((r) => (r.type ? [r.type] : [])))];
const setFile = (type: string) => (type ? `validators.${type}.mjs` : 'validators.mjs');
/** The names a Lambda built with, for one type its routes serve. */
const builtWith = (bundle: string, type = '') => validators.get(bundle)?.get(type);
/**
 * The validators a Lambda ships for one type of its routes (the exports of `validators.mjs`, or
 * `validators.<type>.mjs` for a handler serving several types, read from its one export list).
 */
const shipped = (bundle: string, type = ''): string[] | undefined => {
  const file = join(dir, bundle, setFile(type));
  if (!existsSync(file)) return undefined;
  const list = readFileSync(file, 'utf8').match(/export\s*\{([^}]*)\}\s*;?\s*$/)?.[1] ?? '';
  return list
    .split(',')
    .map(
      (e) =>
        e
          .trim()
          .split(/\s+as\s+/)
          .at(-1)!,
    )
    .sort();
};

describe('the body validators beside the bundles', () => {
  it('a lot write ships exactly the lot and document validators, and hands the kit those names', () => {
    expect(shipped('http/lots/post-lot')).toEqual(['document', 'lot']);
    expect(builtWith('http/lots/post-lot')).toEqual(['document', 'lot']);
    const entry = readFileSync(join(dir, 'http/lots/post-lot/index.mjs'), 'utf8');
    expect(entry).toContain('names:["document","lot"],load:()=>import("./validators.mjs")');
  });

  it('no read (nor the authorizer) ships a validator file, and no Lambda ships them all', () => {
    const withFiles = lambdaBundles().filter((b) => typesOf(b).some((v) => existsSync(join(dir, b, setFile(v)))));
    expect(withFiles.filter((b) => !takesBodies(b))).toEqual([]);
    expect(lambdaBundles().filter((b) => existsSync(join(dir, b, 'request-validators.mjs')))).toEqual([]);
  });

  it("every name a write's or a bot's modules pass to checkWith is shipped beside it, and nothing else", () => {
    for (const handler of lambdaBundles().filter(takesBodies)) {
      const names = namesChecked(handler);
      const types = typesOf(handler);
      // A route of one type gets the names of its type (`<type><Key>`) and the shared ones, never another type's.
      for (const type of types) {
        const others = type ? allTypes.filter((v) => v !== type) : [];
        const own = names.filter((n) => !others.some((o) => n.startsWith(o) && /^[A-Z]/.test(n.slice(o.length))));
        expect(shipped(handler, type) ?? [], `${handler} ${type}`).toEqual(own);
        expect(builtWith(handler, type), `${handler} ${type}`).toEqual(own);
      }
    }
    // Two types, two Lambdas: a landlease write loads no dgfInsider validator, and the reverse.
    expect(shipped('http/auctions/post-auction.landlease', 'landlease')).toContain('landleaseAuction');
    expect(shipped('http/auctions/post-auction.landlease', 'landlease')).not.toContain('dgfInsiderAuction');
    expect(shipped('http/auctions/post-auction.dgfInsider', 'dgfInsider')).toContain('dgfInsiderAuction');
    expect(shipped('http/auctions/post-auction.dgfInsider', 'dgfInsider')).not.toContain('landleaseAuction');
    expect(shipped('http/auctions/post-auction.dgfInsider', 'dgfInsider')).toContain('document');
    expect(shipped('http/assets/post-asset-document', 'bounce')).not.toContain('basicAsset');
    // Not a vacuous walk: the lot, asset and auction writes and the bots check bodies.
    expect(namesChecked('http/assets/post-asset')).toContain('landParcels');
    expect(namesChecked('http/auctions/post-auction.dgfInsider')).toContain('dgfInsiderAuction');
    for (const bot of bots) expect(namesChecked(bot.handler), bot.handler).not.toEqual([]);
  });

  it('a bot is built with an entry that hands its runs those validators', () => {
    for (const bot of bots) {
      expect(inputsOf(bot.handler), bot.handler).toContain(`agora-entry:${bot.handler}`);
      const entry = readFileSync(join(dir, bot.handler, 'index.mjs'), 'utf8');
      expect(entry, bot.handler).toContain(
        `names:${JSON.stringify(builtWith(bot.handler))},load:()=>import("./validators.mjs")`,
      );
    }
  });

  it('a write answers a bad body with the 422 of its own validator, loaded from beside the bundle', () => {
    const { answer } = invoke('http/lots/post-lot', 'POST /api/0.1/lots', '/api/0.1/lots', false, {
      role: 'broker',
      body: { data: { title: 5 } },
    });
    expect(answer.statusCode).toBe(422);
    expect(JSON.parse(answer.body).errors).toContainEqual({
      location: 'body',
      name: 'title',
      description: ['Value must be of type string.'],
    });
  });

  it('a check by a validator its Lambda was not built with fails loudly (a 500, the name in the log)', () => {
    const copy = mkdtempSync(join(tmpdir(), 'agora-bundles-missing-'));
    try {
      cpSync(join(dir, 'http/lots/post-lot'), join(copy, 'http/lots/post-lot'), { recursive: true });
      symlinkSync(join(dir, 'node_modules'), join(copy, 'node_modules'), 'dir');
      writeFileSync(join(copy, 'http/lots/post-lot/validators.mjs'), 'export {};\n');
      const { answer, log } = invoke('http/lots/post-lot', 'POST /api/0.1/lots', '/api/0.1/lots', false, {
        role: 'broker',
        body: { data: { title: 5 } },
        bundles: copy,
      });
      expect(answer.statusCode).toBe(500);
      expect(log).toMatch(/request validator \\?"(lot|document)\\?" not loaded/);
    } finally {
      rmSync(copy, { recursive: true, force: true });
    }
  });
});

describe('the Lambda bundles', () => {
  const sizeOf = (bundle: string) => {
    const output = Object.entries(meta.outputs).find(([file]) => file.endsWith(`/${bundle}/index.mjs`));
    if (!output) throw new Error(`no bundle for ${bundle}`);
    return Math.round((output[1].bytes / 1024) * 10) / 10;
  };

  it("are within their size budget (reads 60 KB, writes 120 KB, the room's timer and bot 150 KB)", () => {
    const past = lambdaBundles().flatMap((b) => {
      const kb = sizeOf(b);
      return kb > bundleBudgetKb(b) ? [`${b}: ${kb} KB > ${bundleBudgetKb(b)} KB`] : [];
    });
    expect(past).toEqual([]);
    // Not vacuous: the budgets are the stated ones, and the largest bundles are near them.
    expect(bundleBudgetKb('http/auctions/post-award-document.landlease')).toBe(WRITE_BUDGET_KB);
    expect(bundleBudgetKb('room/bot')).toBe(ROOM_POSTING_BUDGET_KB);
    expect(sizeOf('http/auctions/post-award-document.landlease')).toBeGreaterThan(90);
  });

  it('an auction write is one Lambda per auction type, each carrying its own type only', () => {
    const types = { dgfInsider: 'dgf-insider', landlease: 'landlease' } as const;
    const perType = lambdaBundles().filter((b) => bundleParts(b).type);
    // Every write of an auction route is built per type, and serves only its type's routes.
    const writes = routes.filter((r) => r.handler.startsWith('http/auctions/') && r.method !== 'GET');
    expect(new Set(writes.map((r) => `${r.handler}.${r.type}`))).toEqual(new Set(perType));
    for (const bundle of perType) {
      const own = bundleParts(bundle).type as keyof typeof types;
      const carried = (type: string) =>
        inputsOf(bundle).some((i) => i.startsWith(`functions/domain/auctions/types/${type}/definition.ts`));
      expect(carried(types[own]), bundle).toBe(true);
      for (const other of Object.keys(types).filter((t) => t !== own))
        expect(carried(types[other as keyof typeof types]), `${bundle} carries ${other}`).toBe(false);
      expect(routesOf(bundle).every((r) => r.type === own)).toBe(true);
    }
  });

  it('carry no route table, not even the OpenAPI one: its document is a file written beside it by the build', () => {
    const withTable = httpBundles().filter((h) => inputsOf(h).includes('functions/routes.ts'));
    expect(withTable).toEqual([]);
    expect(inputsOf('http/docs/openapi-json').filter((i) => i.startsWith('functions/openapi/'))).toEqual([]);
    const shipped = JSON.parse(readFileSync(join(dir, 'http/docs/openapi-json/openapi.json'), 'utf8'));
    expect(shipped).toEqual(JSON.parse(JSON.stringify(openApiDocument())));
  });

  it('serves the OpenAPI document from that file', () => {
    const { answer } = invoke('http/docs/openapi-json', 'GET /api/openapi.json', '/api/openapi.json');
    expect(answer.statusCode).toBe(200);
    const body = Buffer.from(answer.body, answer.isBase64Encoded ? 'base64' : 'utf8').toString();
    expect(body).toBe(readFileSync(join(dir, 'http/docs/openapi-json/openapi.json'), 'utf8'));
  });

  it('get the rules of their own routes from the build: every HTTP entry is generated and hands them to the kit', () => {
    for (const handler of httpBundles()) {
      expect(inputsOf(handler), handler).toContain(`agora-entry:${handler}`);
      expect(inputsOf(handler), handler).toContain('functions/http-kit/route-rules.ts');
    }
  });

  it("carry the document ports (the store's files, docservice keys) only for routes that touch documents", () => {
    const ports = ['functions/runtime/documents.ts', 'functions/store/docservice-keys.ts'];
    for (const handler of lambdaBundles()) {
      for (const file of ports)
        expect(inputsOf(handler).includes(file), `${handler}: ${file}`).toBe(touchesDocuments(handler));
      if (inputsOf(handler).includes('functions/store/files/configured-store.ts'))
        expect(touchesDocuments(handler), handler).toBe(true);
    }
  });

  it('carry no fault injection (the local gateway installs it; it never runs in Lambda)', () => {
    expect(lambdaBundles().filter((h) => inputsOf(h).includes('functions/store/faults.ts'))).toEqual([]);
  });

  it('answer their own routes with the rules built in', () => {
    const { answer } = invoke('http/not-found', '$default', '/nowhere');
    expect(answer.statusCode).toBe(404);
    expect(JSON.parse(answer.body).errors).toEqual([{ location: 'url', name: 'url', description: 'Not Found' }]);
  });

  it('refuse loudly a route they were not built for (a 500, and the reason in the log), never serving it unchecked', () => {
    const { answer, log } = invoke('http/not-found', 'GET /api/0.1/lots', '/api/0.1/lots');
    expect(answer.statusCode).toBe(500);
    expect(JSON.parse(answer.body).errors[0].description).toBe('Internal server error');
    expect(log).toContain('No route rule for \\"GET /api/0.1/lots\\": this Lambda serves $default');
  });

  it('fail loudly when a handler is loaded without the rules the build or the local gateway hands it', () => {
    const { answer, log } = invoke('http/not-found', '$default', '/nowhere', true);
    expect(answer.statusCode).toBe(500);
    expect(log).toContain('No route rules: this handler was loaded without registerRoutes()');
  });
});
