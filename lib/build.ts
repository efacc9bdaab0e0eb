import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { execFileSync } from 'node:child_process';
import { build, type BuildOptions, type Metafile, type Plugin } from 'esbuild';
import { bots } from '../functions/bots.ts';
import { openApiDocument } from '../functions/openapi/document.ts';
import { routeRule, routes } from '../functions/routes.ts';

/**
 * THE build of the Lambdas: every handler module of routes.ts, the authorizer and every bot of bots.ts, bundled in ONE
 * esbuild run (one entry point each). CDK (lib/app-function.ts), `npm run bench` and the bundled local mode
 * (`npm run start:bundled`, the bundled test project) all take their code from here, so what ships is what is tested.
 *
 * Output: `<outdir>/<handler>/index.mjs` (e.g. `http/lots/get-lot/index.mjs`), one directory per Lambda, with the
 * npm package files its route reads at run time copied to `node_modules/<package>/<file>` beside it, and the request
 * body validators (`request-validators.mjs`, built once in the same run) beside the bundles that load them: they
 * are imported at the first request with a body, so a read never loads them.
 *
 * An HTTP Lambda's entry is not its handler module but a small generated module (`routeEntries`) that hands the HTTP
 * kit the rules of the routes that Lambda serves, then exports the handler: no bundle carries the route table, and
 * only the bundles of routes that touch documents carry the document ports (the store's files, keys and secrets).
 */
export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const FUNCTIONS = join(ROOT, 'functions');

/** Every Lambda's handler module (under `functions/`, no extension), each once. */
export const lambdaHandlers = (): string[] => [
  ...new Set([...routes.map((r) => r.handler), 'auth/authorizer', ...bots.map((b) => b.handler)]),
];

/** The npm package files a handler reads at run time (routes.ts `files`). */
const packageFiles = (handler: string): string[] => [
  ...new Set(routes.filter((r) => r.handler === handler).flatMap((r) => r.files ?? [])),
];

export interface BuildLambdasOptions {
  outdir: string;
  /** Linked source maps (`index.mjs.map`); the CDK build ships them (NODE_OPTIONS=--enable-source-maps). */
  sourcemap?: boolean;
  /** Write esbuild's metafile (what each bundle holds) to `<outdir>/meta.json`. */
  metafile?: boolean;
}

const VALIDATORS = join(FUNCTIONS, 'domain/schemas/generated/request-validators.js');
const VALIDATORS_ENTRY = '_shared/request-validators';
const VALIDATORS_FILE = 'request-validators.mjs';
const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH']);

/** The handlers' bundles import the validators as a file beside them (`./request-validators.mjs`), not inlined. */
const validatorsApart: Plugin = {
  name: 'validators-apart',
  setup(b) {
    b.onResolve({ filter: /\/request-validators\.js$/ }, (args) =>
      args.kind === 'dynamic-import' ? { path: `./${VALIDATORS_FILE}`, external: true } : undefined,
    );
  },
};

/**
 * The OpenAPI Lambda serves the document this build writes beside its bundle (`openapi.json`): its dynamic import of
 * the generator, used only when run from the sources, stays out of the bundle with the route table and every schema.
 */
const OPENAPI_HANDLER = 'http/docs/openapi-json';
const OPENAPI_FILE = 'openapi.json';
const openApiApart: Plugin = {
  name: 'openapi-apart',
  setup(b) {
    b.onResolve({ filter: /\/openapi\/document\.ts$/ }, (args) =>
      args.kind === 'dynamic-import' ? { path: args.path, external: true } : undefined,
    );
  },
};

const ENTRY = 'agora-entry';

/**
 * The entry of each HTTP Lambda (`agora-entry:<handler>`): its routes' rules (routes.ts `routeRule`, data only) handed
 * to the kit at import, the document ports only where a route touches documents, and the handler module's exports.
 * Bots and the authorizer have no route rules: their entry is their module.
 */
const routeEntries: Plugin = {
  name: 'route-entries',
  setup(b) {
    b.onResolve({ filter: new RegExp(`^${ENTRY}:`) }, (args) => ({
      path: args.path.slice(ENTRY.length + 1),
      namespace: ENTRY,
    }));
    b.onLoad({ filter: /.*/, namespace: ENTRY }, ({ path: handler }) => {
      const rules = routes.filter((r) => r.handler === handler).map(routeRule);
      const documents = rules.some((r) => r.documents);
      const file = (module: string) => JSON.stringify(join(FUNCTIONS, `${module}.ts`));
      return {
        resolveDir: FUNCTIONS,
        loader: 'js',
        contents: [
          `import { serveRoutes } from ${file('http-kit/route-rules')};`,
          documents ? `import { documentPorts } from ${file('runtime/documents')};` : '',
          `serveRoutes(${JSON.stringify(rules)}${documents ? ', documentPorts' : ''});`,
          `export * from ${file(handler)};`,
        ].join('\n'),
      };
    });
  },
};

const isRoute = (handler: string) => routes.some((r) => r.handler === handler);

const options = (o: BuildLambdasOptions): BuildOptions => ({
  entryPoints: {
    ...Object.fromEntries(
      lambdaHandlers().map((h) => [`${h}/index`, isRoute(h) ? `${ENTRY}:${h}` : join(FUNCTIONS, `${h}.ts`)]),
    ),
    [VALIDATORS_ENTRY]: VALIDATORS,
  },
  plugins: [validatorsApart, openApiApart, routeEntries],
  outdir: o.outdir,
  outExtension: { '.js': '.mjs' },
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node22',
  minify: true,
  sourcemap: o.sourcemap ?? false,
  // File and line in stack traces, without a copy of every source in each asset (maps were 10 times the code).
  sourcesContent: false,
  metafile: o.metafile ?? false,
  // The Lambda runtime provides SDK v3; bundling it would double every cold start.
  external: ['@aws-sdk/*'],
  mainFields: ['module', 'main'],
  // CommonJS dependencies (middy's, powertools') call require(); ESM output has none of its own.
  banner: { js: "import { createRequire } from 'module'; const require = createRequire(import.meta.url);" },
  logLevel: 'silent',
  legalComments: 'none',
});

function copyPackageFiles(outdir: string): void {
  for (const handler of lambdaHandlers()) {
    const dir = join(outdir, handler);
    // Only where a request can carry a body (the HTTP kit loads them for those) or a bot runs: reads never load them.
    const takesBodies =
      bots.some((b) => b.handler === handler) ||
      routes.some((r) => r.handler === handler && BODY_METHODS.has(r.method));
    if (takesBodies && readFileSync(join(dir, 'index.mjs'), 'utf8').includes(`./${VALIDATORS_FILE}`)) {
      cpSync(join(outdir, `${VALIDATORS_ENTRY}.mjs`), join(dir, VALIDATORS_FILE));
      if (existsSync(join(outdir, `${VALIDATORS_ENTRY}.mjs.map`)))
        cpSync(join(outdir, `${VALIDATORS_ENTRY}.mjs.map`), join(dir, `${VALIDATORS_FILE}.map`));
    }
    for (const file of packageFiles(handler)) {
      const to = join(outdir, handler, 'node_modules', file);
      mkdirSync(dirname(to), { recursive: true });
      cpSync(join(ROOT, 'node_modules', file), to);
    }
  }
}

/** Builds every Lambda into `outdir` (emptied first). */
export async function buildLambdas(o: BuildLambdasOptions): Promise<{ metafile?: Metafile }> {
  rmSync(o.outdir, { recursive: true, force: true });
  const result = await build(options(o));
  copyPackageFiles(o.outdir);
  writeFileSync(join(o.outdir, OPENAPI_HANDLER, OPENAPI_FILE), JSON.stringify(openApiDocument()));
  return { metafile: result.metafile };
}

/**
 * The same, synchronously (CDK constructs cannot await, and esbuild's synchronous API takes no plugins): the build
 * runs in a child process.
 */
export function buildLambdasSync(o: BuildLambdasOptions): void {
  const args = ['--import', 'tsx', fileURLToPath(import.meta.url), o.outdir, ...(o.sourcemap ? ['--sourcemap'] : [])];
  execFileSync(process.execPath, args, { cwd: ROOT, stdio: ['ignore', 'ignore', 'inherit'] });
}

/** Where a Lambda's bundle directory is in a build output. */
export const bundleDir = (outdir: string, handler: string) => join(outdir, handler);

/** A Lambda's body validators file, when it has one (bench: a write's first request loads it). */
export const validatorsFile = (outdir: string, handler: string): string | undefined => {
  const file = join(outdir, handler, VALIDATORS_FILE);
  return existsSync(file) ? file : undefined;
};

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const outdir = resolve(process.argv[2] ?? join(ROOT, '.build', 'lambdas'));
  const t = performance.now();
  await buildLambdas({ outdir, sourcemap: process.argv.includes('--sourcemap') });
  console.log(`built ${lambdaHandlers().length} Lambdas into ${outdir} in ${Math.round(performance.now() - t)} ms`);
}
