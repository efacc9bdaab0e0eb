import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createHash } from 'node:crypto';
import { build, transform, type BuildOptions, type Metafile, type Plugin } from 'esbuild';
import { bots, webhookDelivery } from '../functions/bots.ts';
import { roomLambdas } from '../functions/room/lambdas.ts';
import { openApiDocument } from '../functions/openapi/document.ts';
import { routeRule, routes } from '../functions/routes.ts';
import { answerHelp } from '../bin/cli-help.ts';

/**
 * THE build of the Lambdas: every handler module of routes.ts, the authorizer and every bot of bots.ts, bundled in ONE
 * esbuild run (one entry point each), after a first pass that writes nothing and only tells which source modules each
 * bundle holds. CDK (lib/app-function.ts), `npm run bench` and the bundled local mode (`npm run start:bundled`, the
 * bundled test project) all take their code from here, so what ships is what is tested.
 *
 * Output: `<outdir>/<handler>/index.mjs` (e.g. `http/lots/get-lot/index.mjs`), one directory per Lambda, with the
 * npm package files its route reads at run time copied to `node_modules/<package>/<file>` beside it, and the request
 * body validators its code checks with beside it (`validators.mjs`, or `validators.<type>.mjs` per type a handler
 * serves: one module per set of names, built in the same run, exporting just those): the kit imports the route's
 * at the first request with a body, so a read never loads validators and a write only its own; the bots likewise,
 * at each run. The OpenAPI Lambda gets its document as a file (`openapi.json`).
 *
 * An HTTP Lambda's entry is not its handler module but a small generated module (`routeEntries`) that hands the HTTP
 * kit the rules of the routes that Lambda serves, then exports the handler: no bundle carries the route table, and
 * only the bundles of routes that touch documents carry the document ports (the store's files, keys and secrets).
 */
export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const FUNCTIONS = join(ROOT, 'functions');

/** Every Lambda's handler module (under `functions/`, no extension), each once. */
export const lambdaHandlers = (): string[] => [
  ...new Set([
    ...routes.map((r) => r.handler),
    'auth/authorizer',
    ...bots.map((b) => b.handler),
    webhookDelivery.handler,
    'ops/migrate',
    ...roomLambdas.map((l) => l.handler),
  ]),
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
/**
 * One module per set of validator names a Lambda uses (`<outdir>/_shared/validators/<set>.mjs`, re-exporting just
 * those), copied beside each Lambda of that set as `validators.mjs`, or, for a handler that serves several types
 * (`type`: an auction or asset type), one per type, `validators.<type>.mjs`: a route of one type never checks
 * another type's bodies, so its Lambda loads only the names of its type and the shared ones.
 */
const VALIDATOR_SET_FILE = 'validators.mjs';
const validatorSetFile = (type: string) => (type ? `validators.${type}.mjs` : VALIDATOR_SET_FILE);
const VALIDATOR_ENTRY = 'agora-validators';
const VALIDATORS_SHARED = '_shared/validators';
const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH']);
/** A bot, or a room Lambda that posts results (it checks what it writes as the API does, as a bot). */
const isBot = (handler: string) =>
  bots.some((b) => b.handler === handler) || roomLambdas.some((l) => l.handler === handler && l.posts);
/** A bot, or an HTTP Lambda with a route that can carry a body: validators load only for those. */
const takesBodies = (handler: string) =>
  isBot(handler) || routes.some((r) => r.handler === handler && BODY_METHODS.has(r.method));

/** The types a handler serves (routes.ts `type`), or `['']` for one without (and for a bot). */
const typesOf = (handler: string): string[] => {
  const types = new Set(routes.filter((r) => r.handler === handler).map((r) => r.type ?? ''));
  return types.size > 0 ? [...types] : [''];
};

/** Every type a route serves anywhere (routes.ts `type`). */
const ALL_TYPES = [...new Set(routes.flatMap((r) => (r.type ? [r.type] : [])))];
/** A type's own schemas are named `<type><Key>` (the validator names of request-schemas.ts). */
const ownedBy = (type: string, name: string) => name.startsWith(type) && /^[A-Z]/.test(name.slice(type.length));

/**
 * The names a route of `type` can check among a handler's: a route serves one type, so every other type's own
 * names are left out (a route without a type, and a bot, keep them all).
 */
const namesOfType = (names: readonly string[], type: string): string[] =>
  type ? names.filter((name) => !ALL_TYPES.some((other) => other !== type && ownedBy(other, name))) : [...names];

/** Per handler, per type it serves (`''` for none): the validator names its routes can check. */
export type ValidatorNames = ReadonlyMap<string, ReadonlyMap<string, readonly string[]>>;

/**
 * `loadValidators()` without a source (run from the sources) imports them all; in a bundle that import stays out (a
 * file no Lambda ships, so a bundle that reached it would fail loudly): each loads its own `validators.mjs`.
 */
const validatorsApart: Plugin = {
  name: 'validators-apart',
  setup(b) {
    b.onResolve({ filter: /\/request-validators\.js$/ }, (args) =>
      args.kind === 'dynamic-import' ? { path: './request-validators.mjs', external: true } : undefined,
    );
  },
};

/**
 * The entry of one set's module (`agora-validators:<name>,<name>...`): re-exports those validators of
 * request-validators.js, so tree-shaking keeps only their code and the subschemas and runtime they share, once.
 */
const validatorEntries: Plugin = {
  name: 'validator-entries',
  setup(b) {
    b.onResolve({ filter: new RegExp(`^${VALIDATOR_ENTRY}:`) }, (args) => ({
      path: args.path.slice(VALIDATOR_ENTRY.length + 1),
      namespace: VALIDATOR_ENTRY,
    }));
    b.onLoad({ filter: /.*/, namespace: VALIDATOR_ENTRY }, ({ path: names }) => ({
      resolveDir: FUNCTIONS,
      loader: 'js',
      contents: `export { ${names} } from ${JSON.stringify(VALIDATORS)};`,
    }));
  },
};

/** A set's file name: short and stable (a digest of its names). */
const setFile = (names: readonly string[]) =>
  `${createHash('sha256').update(names.join(',')).digest('hex').slice(0, 12)}.mjs`;

/**
 * The validator names a bundle's code can use: every check is `checkWith('<name>', ...)` with a literal name in a
 * domain module (test/unit/architecture.test.ts keeps it so), and the land-parcel validators are read only by
 * validate-schema-properties.ts. Read from the source modules esbuild put in the bundle (its metafile), comments
 * stripped.
 */
const CHECK_WITH = /\bcheckWith\(\s*['"]([A-Za-z0-9_]+)['"]/g;
const LAND_PARCELS_MODULE = 'functions/domain/schemas/validate-schema-properties.ts';
/** The validator names each source module checks with (`functions/**.ts` among `inputs`; others name none). */
async function namesByModule(inputs: Iterable<string>): Promise<Map<string, string[]>> {
  const modules = [...new Set(inputs)].filter((i) => i.startsWith('functions/') && i.endsWith('.ts'));
  return new Map(
    await Promise.all(
      modules.map(async (input) => {
        const { code } = await transform(readFileSync(join(ROOT, input), 'utf8'), {
          loader: 'ts',
          legalComments: 'none',
        });
        const found = [...code.matchAll(CHECK_WITH)].map((m) => m[1]);
        return [input, input === LAND_PARCELS_MODULE ? [...found, 'landParcels'] : found] as const;
      }),
    ),
  );
}

/** The source modules of each Lambda's bundle (`<handler>/index.mjs`), from a build's metafile. */
const bundleInputs = (meta: Metafile, outdir: string): Map<string, string[]> => {
  const byHandler = new Map<string, string[]>();
  for (const handler of lambdaHandlers()) {
    const output = Object.entries(meta.outputs).find(
      ([file]) => resolve(ROOT, file) === resolve(outdir, handler, 'index.mjs'),
    );
    if (!output) throw new Error(`no bundle for ${handler} in the metafile`);
    byHandler.set(handler, Object.keys(output[1].inputs));
  }
  return byHandler;
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
 * to the kit at import, the document ports only where a route touches documents, the body validators its code checks
 * with, and the handler module's exports. A bot's entry (`agora-entry:bots/<name>`) hands its run only the validators;
 * the authorizer has no rules nor bodies: its entry is its module.
 */
const routeEntries = (validators: ValidatorNames | undefined): Plugin => ({
  name: 'route-entries',
  setup(b) {
    // The validators are files beside the bundle, imported when the kit loads them.
    b.onResolve({ filter: /^\.\/validators(\.[^/]+)?\.mjs$/, namespace: ENTRY }, (args) => ({
      path: args.path,
      external: true,
    }));
    b.onResolve({ filter: new RegExp(`^${ENTRY}:`) }, (args) => ({
      path: args.path.slice(ENTRY.length + 1),
      namespace: ENTRY,
    }));
    b.onLoad({ filter: /.*/, namespace: ENTRY }, ({ path: handler }) => {
      const rules = routes.filter((r) => r.handler === handler).map(routeRule);
      const documents = rules.some((r) => r.documents);
      const file = (module: string) => JSON.stringify(join(FUNCTIONS, `${module}.ts`));
      // Known after the first pass of the build (undefined in it: the imports are external, so the graph is the same).
      const sourceOf = (type: string) =>
        `{ names: ${JSON.stringify(validators?.get(handler)?.get(type) ?? [])}, load: () => import(${JSON.stringify(`./${validatorSetFile(type)}`)}) }`;
      const source = sourceOf('');
      const byType = `{ ${typesOf(handler)
        .map((v) => `${JSON.stringify(v)}: ${sourceOf(v)}`)
        .join(', ')} }`;
      if (isBot(handler))
        return {
          resolveDir: FUNCTIONS,
          loader: 'js',
          contents: [
            `import { registerBotValidators } from ${file('runtime/bot-run')};`,
            `registerBotValidators(${source});`,
            `export * from ${file(handler)};`,
          ].join('\n'),
        };
      return {
        resolveDir: FUNCTIONS,
        loader: 'js',
        contents: [
          `import { registerRoutes } from ${file('http-kit/route-rules')};`,
          documents ? `import { documentPorts } from ${file('runtime/documents')};` : '',
          `registerRoutes(${JSON.stringify(rules)}, ${documents ? 'documentPorts' : 'undefined'}, ${byType});`,
          `export * from ${file(handler)};`,
        ].join('\n'),
      };
    });
  },
});

const generatedEntry = (handler: string) => isBot(handler) || routes.some((r) => r.handler === handler);

const lambdaEntries = () =>
  Object.fromEntries(
    lambdaHandlers().map((h) => [`${h}/index`, generatedEntry(h) ? `${ENTRY}:${h}` : join(FUNCTIONS, `${h}.ts`)]),
  );

/**
 * Packages whose modules only define (no global state touched at load) but do not say so (`sideEffects` in their
 * package.json): declared here, so a bundle that imports them without using them (a read reaches the change log's
 * module through the store, and uses none of its diffing) leaves them out.
 */
const PURE_PACKAGES = /^fast-json-patch$/;
const purePackages: Plugin = {
  name: 'pure-packages',
  setup(b) {
    b.onResolve({ filter: PURE_PACKAGES }, async (args) => {
      if (args.pluginData === PURE_PACKAGES) return undefined;
      const { kind, importer, resolveDir } = args;
      const found = await b.resolve(args.path, { kind, importer, resolveDir, pluginData: PURE_PACKAGES });
      return found.errors.length ? { errors: found.errors } : { path: found.path, sideEffects: false };
    });
  },
};

const options = (o: BuildLambdasOptions): BuildOptions => ({
  plugins: [validatorsApart, openApiApart, validatorEntries, purePackages],
  // Metafile paths relative to the project (`functions/...`), whatever the caller's working directory.
  absWorkingDir: ROOT,
  outdir: resolve(o.outdir),
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
  // The Lambda runtime provides SDK v3, and with it Smithy's request signer (the room's AppSync Events publish signs
  // with it); bundling them would double every cold start.
  external: ['@aws-sdk/*', '@smithy/signature-v4'],
  mainFields: ['module', 'main'],
  // CommonJS dependencies (middy's, powertools') call require(); ESM output has none of its own.
  banner: { js: "import { createRequire } from 'module'; const require = createRequire(import.meta.url);" },
  logLevel: 'silent',
  legalComments: 'none',
});

const copy = (from: string, to: string, withMap = false) => {
  mkdirSync(dirname(to), { recursive: true });
  cpSync(from, to);
  if (withMap && existsSync(`${from}.map`)) cpSync(`${from}.map`, `${to}.map`);
};

function copyBeside(outdir: string, validators: ValidatorNames): void {
  for (const handler of lambdaHandlers()) {
    const dir = join(outdir, handler);
    // The module of the names its code checks with, per type it serves (none for a read).
    for (const [type, names] of validators.get(handler) ?? [])
      if (names.length > 0)
        copy(join(outdir, VALIDATORS_SHARED, setFile(names)), join(dir, validatorSetFile(type)), true);
    for (const file of packageFiles(handler)) copy(join(ROOT, 'node_modules', file), join(dir, 'node_modules', file));
    // Static files a handler's folder keeps in `assets/` (the room page's script and style), read beside its module.
    const assets = join(ROOT, 'functions', dirname(handler), 'assets');
    if (existsSync(assets)) cpSync(assets, join(dir, 'assets'), { recursive: true });
  }
}

/**
 * Builds every Lambda into `outdir` (emptied first). Two esbuild passes: the first (nothing written) tells which source
 * modules each bundle holds, so which validators its code can use; the second writes the bundles, their entries handing
 * the kit those names, and one validators module per set of names.
 */
export async function buildLambdas(
  o: BuildLambdasOptions,
): Promise<{ metafile?: Metafile; validators: ValidatorNames }> {
  rmSync(o.outdir, { recursive: true, force: true });
  const base = options(o);
  const first = await build({
    ...base,
    entryPoints: lambdaEntries(),
    plugins: [...base.plugins!, routeEntries(undefined)],
    write: false,
    sourcemap: false,
    metafile: true,
  });
  const inputs = bundleInputs(first.metafile, resolve(o.outdir));
  const checked = await namesByModule([...inputs.values()].flat());
  const namesOf = (files: readonly string[]) => [...new Set(files.flatMap((f) => checked.get(f) ?? []))].sort();
  const validators: ValidatorNames = new Map(
    [...inputs].map(([handler, files]) => {
      const names = takesBodies(handler) ? namesOf(files) : [];
      const types = typesOf(handler);
      return [handler, new Map(types.map((v) => [v, namesOfType(names, v)]))] as const;
    }),
  );
  const sets = new Map(
    [...validators.values()]
      .flatMap((byType) => [...byType.values()])
      .filter((n) => n.length > 0)
      .map((n) => [setFile(n), n]),
  );
  const result = await build({
    ...base,
    entryPoints: {
      ...lambdaEntries(),
      ...Object.fromEntries(
        [...sets].map(([file, names]) => [
          `${VALIDATORS_SHARED}/${file.replace(/\.mjs$/, '')}`,
          `${VALIDATOR_ENTRY}:${names.join(',')}`,
        ]),
      ),
    },
    plugins: [...base.plugins!, routeEntries(validators)],
  });
  copyBeside(o.outdir, validators);
  writeFileSync(join(o.outdir, OPENAPI_HANDLER, OPENAPI_FILE), JSON.stringify(openApiDocument()));
  return { metafile: result.metafile, validators };
}

/**
 * The body validators file beside a Lambda, when it has one (bench: a write's first request with a body loads it);
 * for a handler serving several types, the largest of theirs.
 */
export const validatorsFile = (outdir: string, handler: string): string | undefined =>
  typesOf(handler)
    .map((v) => join(outdir, handler, validatorSetFile(v)))
    .filter((file) => existsSync(file))
    .sort((a, b) => statSync(b).size - statSync(a).size)[0];

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  answerHelp(
    'Builds every Lambda as CDK ships it (esbuild: one bundle per handler, its validators beside it).',
    'usage: npm run build [-- <output folder> (default .build/lambdas)] [--sourcemap]',
  );
  const outdir = resolve(process.argv[2] ?? join(ROOT, '.build', 'lambdas'));
  const t = performance.now();
  await buildLambdas({ outdir, sourcemap: process.argv.includes('--sourcemap') });
  console.log(`built ${lambdaHandlers().length} Lambdas into ${outdir} in ${Math.round(performance.now() - t)} ms`);
}
