import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createHash } from 'node:crypto';
import { build, transform, type BuildOptions, type Metafile, type Plugin } from 'esbuild';
import { bots } from '../functions/bots.ts';
import { roomLambdas } from '../functions/room/lambdas.ts';
import { openApiDocument } from '../functions/openapi/document.ts';
import { routeRule, routes } from '../functions/routes.ts';
import { answerHelp } from './cli-help.ts';
import { bundleParts, lambdaBundles, lambdaHandlers } from './lambda-bundles.ts';

export { lambdaBundles, lambdaHandlers };

/**
 * THE build of the Lambdas: every handler module of routes.ts, the authorizer and every bot of bots.ts, bundled in ONE
 * esbuild run (one entry point each), after a first pass that writes nothing and only tells which source modules each
 * bundle holds. CDK (lib/app-function.ts), `npm run bench` and the bundled local mode (`npm run start:bundled`, the
 * bundled test project) all take their code from here, so what ships is what is tested.
 *
 * Output: `<outdir>/<bundle>/index.mjs` (e.g. `http/lots/get-lot/index.mjs`), one directory per Lambda, with the
 * npm package files its route reads at run time copied to `node_modules/<package>/<file>` beside it, and the request
 * body validators its code checks with beside it (`validators.mjs`, or `validators.<type>.mjs` per type a handler
 * serves: one module per set of names, built in the same run, exporting just those): the kit imports the route's
 * at the first request with a body, so a read never loads validators and a write only its own; the bots likewise,
 * at each run. The OpenAPI Lambda gets its document as a file (`openapi.json`).
 *
 * An HTTP Lambda's entry is not its handler module but a small generated module (`routeEntries`) that hands the HTTP
 * kit the rules of the routes that Lambda serves, then exports the handler: no bundle carries the route table, and
 * only the bundles of routes that touch documents carry the document ports (the store's files, keys and secrets).
 *
 * An auction write serving several auction types is one bundle per type (lib/lambda-bundles.ts,
 * `<handler>.<type>/index.mjs`), built in an esbuild run of its type in which functions/domain/auctions/definitions.ts
 * is a generated module holding that type's definition alone (`servedAuctionTypes`): esbuild resolves a module once
 * per run, for every entry, so a run per type is what lets each bundle leave the other type's definition out.
 */
export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const FUNCTIONS = join(ROOT, 'functions');

/** The npm package files a bundle's handler reads at run time (routes.ts `files`). */
const packageFiles = (bundle: string): string[] => [
  ...new Set(routes.filter((r) => r.handler === bundleParts(bundle).handler).flatMap((r) => r.files ?? [])),
];
/** The routes a bundle serves: its handler's, of its type when it is built per type. */
const routesOf = (bundle: string) => {
  const { handler, type } = bundleParts(bundle);
  return routes.filter((r) => r.handler === handler && (type === undefined || r.type === type));
};

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
const isBot = (bundle: string) =>
  bots.some((b) => b.handler === bundle) || roomLambdas.some((l) => l.handler === bundle && l.posts);
/** A bot, or an HTTP Lambda with a route that can carry a body: validators load only for those. */
const takesBodies = (bundle: string) => isBot(bundle) || routesOf(bundle).some((r) => BODY_METHODS.has(r.method));

/** The types a bundle serves (routes.ts `type`), or `['']` for one without (and for a bot). */
const typesOf = (bundle: string): string[] => {
  const types = new Set(routesOf(bundle).map((r) => r.type ?? ''));
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

/** Per bundle, per type it serves (`''` for none): the validator names its routes can check. */
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

/** The source modules of each Lambda's bundle (`<bundle>/index.mjs`), from a build's metafile. */
const bundleInputs = (meta: Metafile, outdir: string): Map<string, string[]> => {
  const byBundle = new Map<string, string[]>();
  for (const bundle of lambdaBundles()) {
    const output = Object.entries(meta.outputs).find(
      ([file]) => resolve(ROOT, file) === resolve(outdir, bundle, 'index.mjs'),
    );
    if (!output) throw new Error(`no bundle for ${bundle} in the metafile`);
    byBundle.set(bundle, Object.keys(output[1].inputs));
  }
  return byBundle;
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
    b.onLoad({ filter: /.*/, namespace: ENTRY }, ({ path: bundle }) => {
      const { handler } = bundleParts(bundle);
      const rules = routesOf(bundle).map(routeRule);
      const documents = rules.some((r) => r.documents);
      const file = (module: string) => JSON.stringify(join(FUNCTIONS, `${module}.ts`));
      // Known after the first pass of the build (undefined in it: the imports are external, so the graph is the same).
      const sourceOf = (type: string) =>
        `{ names: ${JSON.stringify(validators?.get(bundle)?.get(type) ?? [])}, load: () => import(${JSON.stringify(`./${validatorSetFile(type)}`)}) }`;
      const source = sourceOf('');
      const byType = `{ ${typesOf(bundle)
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

const generatedEntry = (bundle: string) => isBot(bundle) || routesOf(bundle).length > 0;

const lambdaEntries = (bundles: readonly string[]) =>
  Object.fromEntries(
    bundles.map((b) => [`${b}/index`, generatedEntry(b) ? `${ENTRY}:${b}` : join(FUNCTIONS, `${b}.ts`)]),
  );

/**
 * In the run of one auction type's bundles, the module of the definitions a bundle serves
 * (functions/domain/auctions/definitions.ts) is generated: that type's definition alone, so esbuild leaves every
 * other type's out (registry.ts reads the definitions from it, and finds no other).
 */
const DEFINITIONS = join(FUNCTIONS, 'domain/auctions/definitions.ts');
const SERVED = 'agora-served-auction-types';
const definitionModule = (type: string) => {
  const file = join(
    FUNCTIONS,
    'domain/auctions/types',
    type.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`),
    'definition.ts',
  );
  if (!existsSync(file)) throw new Error(`no definition module for the auction type ${type}: ${file}`);
  return file;
};
const servedAuctionTypes = (type: string): Plugin => ({
  name: 'served-auction-types',
  setup(b) {
    b.onResolve({ filter: /\/definitions\.ts$/ }, (args) =>
      resolve(args.resolveDir, args.path) === DEFINITIONS ? { path: type, namespace: SERVED } : undefined,
    );
    b.onLoad({ filter: /.*/, namespace: SERVED }, () => ({
      resolveDir: FUNCTIONS,
      loader: 'js',
      contents: [
        `import { ${type} } from ${JSON.stringify(definitionModule(type))};`,
        `export const servedDefinitions = { ${type} };`,
      ].join('\n'),
    }));
  },
});

/** The bundles of each esbuild run: `''` those of every type, else those built for one auction type. */
const runs = (): Map<string, string[]> => {
  const byType = new Map<string, string[]>([['', []]]);
  for (const bundle of lambdaBundles()) {
    const type = bundleParts(bundle).type ?? '';
    byType.set(type, [...(byType.get(type) ?? []), bundle]);
  }
  return byType;
};
const runPlugins = (type: string) => (type ? [servedAuctionTypes(type)] : []);
/** The metafiles of several runs as one (their outputs are distinct files). */
const merged = (metas: readonly Metafile[]): Metafile => ({
  inputs: Object.assign({}, ...metas.map((m) => m.inputs)),
  outputs: Object.assign({}, ...metas.map((m) => m.outputs)),
});

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
  for (const bundle of lambdaBundles()) {
    const { handler } = bundleParts(bundle);
    const dir = join(outdir, bundle);
    // The module of the names its code checks with, per type it serves (none for a read).
    for (const [type, names] of validators.get(bundle) ?? [])
      if (names.length > 0)
        copy(join(outdir, VALIDATORS_SHARED, setFile(names)), join(dir, validatorSetFile(type)), true);
    for (const file of packageFiles(bundle)) copy(join(ROOT, 'node_modules', file), join(dir, 'node_modules', file));
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
  const byRun = [...runs()];
  const first = await Promise.all(
    byRun.map(([type, bundles]) =>
      build({
        ...base,
        entryPoints: lambdaEntries(bundles),
        plugins: [...base.plugins!, ...runPlugins(type), routeEntries(undefined)],
        write: false,
        sourcemap: false,
        metafile: true,
      }),
    ),
  );
  const inputs = bundleInputs(merged(first.map((r) => r.metafile)), resolve(o.outdir));
  const checked = await namesByModule([...inputs.values()].flat());
  const namesOf = (files: readonly string[]) => [...new Set(files.flatMap((f) => checked.get(f) ?? []))].sort();
  const validators: ValidatorNames = new Map(
    [...inputs].map(([bundle, files]) => {
      const names = takesBodies(bundle) ? namesOf(files) : [];
      const types = typesOf(bundle);
      return [bundle, new Map(types.map((v) => [v, namesOfType(names, v)]))] as const;
    }),
  );
  const sets = new Map(
    [...validators.values()]
      .flatMap((byType) => [...byType.values()])
      .filter((n) => n.length > 0)
      .map((n) => [setFile(n), n]),
  );
  const results = await Promise.all(
    byRun.map(([type, bundles]) =>
      build({
        ...base,
        entryPoints: {
          ...lambdaEntries(bundles),
          // The validator sets are built once, in the run of every type.
          ...(type
            ? {}
            : Object.fromEntries(
                [...sets].map(([file, names]) => [
                  `${VALIDATORS_SHARED}/${file.replace(/\.mjs$/, '')}`,
                  `${VALIDATOR_ENTRY}:${names.join(',')}`,
                ]),
              )),
        },
        plugins: [...base.plugins!, ...runPlugins(type), routeEntries(validators)],
      }),
    ),
  );
  copyBeside(o.outdir, validators);
  writeFileSync(join(o.outdir, OPENAPI_HANDLER, OPENAPI_FILE), JSON.stringify(openApiDocument()));
  const metas = results.flatMap((r) => (r.metafile ? [r.metafile] : []));
  return { metafile: metas.length ? merged(metas) : undefined, validators };
}

/**
 * The body validators file beside a Lambda's bundle, when it has one (bench: a write's first request with a body
 * loads it); for a bundle serving several types, the largest of theirs.
 */
export const validatorsFile = (outdir: string, bundle: string): string | undefined =>
  typesOf(bundle)
    .map((v) => join(outdir, bundle, validatorSetFile(v)))
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
  console.log(
    `built ${lambdaBundles().length} Lambda bundles into ${outdir} in ${Math.round(performance.now() - t)} ms`,
  );
}
