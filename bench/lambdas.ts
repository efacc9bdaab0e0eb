import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, statSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { docserviceAccess, routes } from '../functions/routes.ts';
import { buildLambdas, lambdaBundles, ROOT, validatorsFile } from '../lib/build.ts';
import { bundleBudgetKb, bundleKind } from '../lib/bundle-budgets.ts';
import { bundleParts } from '../lib/lambda-bundles.ts';
import { roomLambdas } from '../functions/room/lambdas.ts';

/**
 * Bundle sizes and cold imports of every Lambda, from the one build of lib/build.ts (the code CDK ships), each beside
 * its floor: a fresh process importing only the AWS SDK clients the Lambda needs (the DynamoDB document client; plus
 * the S3 client and presigner for the routes that store files). Each run is one fresh process that imports the floor,
 * then the bundle: the two times come from the same process, so the ratio is not the noise between two processes on a
 * shared machine (separate processes for floor and bundle differed by ±50 % run to run here). The bundle's own import
 * of those SDK clients is then served from the module cache: its cold import is floor + the rest, the same work in
 * another order. Targets: import ≤ 1.15 × floor; bundle ≤ 60 KB for a read, ≤ 120 KB for a write.
 */
const DYNAMODB = ['@aws-sdk/client-dynamodb', '@aws-sdk/lib-dynamodb'];
const S3 = ['@aws-sdk/client-s3', '@aws-sdk/s3-request-presigner'];
/** The room's Lambdas answer through PostToConnection: the API Gateway Management client is theirs as DynamoDB's. */
const SOCKETS = ['@aws-sdk/client-apigatewaymanagementapi'];
const FLOORS = {
  DynamoDB: DYNAMODB,
  'DynamoDB + S3': [...DYNAMODB, ...S3],
  'DynamoDB + API Gateway': [...DYNAMODB, ...SOCKETS],
} as const;

export interface LambdaRow {
  lambda: string;
  kind: 'read' | 'write';
  floor: keyof typeof FLOORS;
  kb: number;
  /** The body validators a write loads at its first request with a body (beside the bundle), KB. */
  validatorsKb?: number;
  /** Median over runs of floor + the bundle after it (its whole cold import). */
  importMs: number;
  floorMs: number;
  /** Median over runs of (floor + bundle) ÷ floor, each run one process. */
  ratio: number;
  error?: string;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const round = (x: number, digits = 1) => Math.round(x * 10 ** digits) / 10 ** digits;

const kindOf = (bundle: string): LambdaRow['kind'] => bundleKind(bundle);
const floorOf = (bundle: string): LambdaRow['floor'] =>
  routes.some((r) => r.handler === bundleParts(bundle).handler && docserviceAccess(r) === 'files')
    ? 'DynamoDB + S3'
    : roomLambdas.some((l) => l.handler === bundle)
      ? 'DynamoDB + API Gateway'
      : 'DynamoDB';

/**
 * One fresh `node` in `cwd`: ms spent in `import()` of the floor's specifiers, then of the bundle's (timed inside the
 * process; the bundle's SDK imports are then cached).
 */
function pairedImportMs(
  floor: string[],
  bundle: string[],
  cwd: string,
  env: NodeJS.ProcessEnv,
): { floor: number; rest: number } {
  const script =
    `const t0 = performance.now(); for (const s of ${JSON.stringify(floor)}) await import(s); const t1 = performance.now();` +
    ` for (const s of ${JSON.stringify(bundle)}) await import(s);` +
    ' console.log(JSON.stringify([t1 - t0, performance.now() - t1])); process.exit(0);';
  const out = execFileSync(process.execPath, ['--input-type=module', '-e', script], {
    cwd,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const [f, rest] = JSON.parse(out.toString().trim().split('\n').at(-1) ?? '[]') as number[];
  return { floor: f, rest };
}

export async function measureLambdas(runs: number): Promise<LambdaRow[]> {
  const dir = mkdtempSync(join(tmpdir(), 'agora-bench-'));
  // The SDK stays external, as the Lambda runtime provides it: the bundles (and the floors) resolve it through this link.
  symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'));
  const env = {
    ...process.env,
    TABLE_NAME: 'bench',
    AWS_REGION: 'eu-central-1',
    NODE_OPTIONS: '',
    AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
  };
  try {
    await buildLambdas({ outdir: join(dir, 'lambdas') });
    symlinkSync(join(ROOT, 'node_modules'), join(dir, 'lambdas', 'node_modules'));
    return lambdaBundles().map((lambda) => {
      const file = join(dir, 'lambdas', lambda, 'index.mjs');
      const floor = floorOf(lambda);
      const clients = [...FLOORS[floor]];
      const kind = kindOf(lambda);
      // A write's cold start includes the validators its first request loads: they are timed with the bundle.
      const validators = kind === 'write' ? validatorsFile(join(dir, 'lambdas'), lambda) : undefined;
      const row = {
        lambda,
        kind,
        floor,
        kb: round(statSync(file).size / 1024),
        ...(validators && { validatorsKb: round(statSync(validators).size / 1024) }),
      };
      const specifiers = [`file://${file}`, ...(validators ? [`file://${validators}`] : [])];
      try {
        const times = Array.from({ length: runs }, () => pairedImportMs(clients, specifiers, dir, env));
        return {
          ...row,
          importMs: Math.round(median(times.map((t) => t.floor + t.rest))),
          floorMs: Math.round(median(times.map((t) => t.floor))),
          ratio: round(median(times.map((t) => (t.floor + t.rest) / t.floor)), 2),
        };
      } catch (error) {
        const message =
          String((error as { stderr?: Buffer }).stderr ?? error)
            .split('\n')
            .find((l) => /Error/.test(l)) ?? 'failed';
        return { ...row, importMs: NaN, floorMs: NaN, ratio: NaN, error: message.slice(0, 100) };
      }
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Median import ÷ floor over all rows, reads, writes, and per resource (`http/<resource>`, bots). */
function summary(rows: LambdaRow[]): string {
  const ok = rows.filter((r) => !r.error);
  const med = (rs: LambdaRow[]) => (rs.length ? round(median(rs.map((r) => r.ratio)), 2) : '-');
  const groups = [...new Set(ok.map((r) => r.lambda.split('/').slice(0, 2).join('/')))];
  return (
    `**${med(ok)}** over all, ${med(ok.filter((r) => r.kind === 'read'))} for reads, ${med(ok.filter((r) => r.kind === 'write'))} for writes` +
    ` (${groups.map((g) => `${g} ${med(ok.filter((r) => r.lambda.startsWith(g)))}`).join(', ')})`
  );
}

/** Why the Lambdas outside the targets are, from their rows (the README's Lambdas section says what it would take). */
function notWithin(rows: LambdaRow[], within: (r: LambdaRow) => boolean): string[] {
  const out = rows.filter((r) => !within(r));
  if (out.length === 0) return [];
  const over = out.filter((r) => r.kb > bundleBudgetKb(r.lambda));
  const writes = out.filter((r) => r.kind === 'write' && r.validatorsKb);
  const ratios = out.map((r) => r.ratio).filter((x) => !Number.isNaN(x));
  return [
    `Not within both targets: ${out.length} (${out.filter((r) => r.kind === 'read').length} reads, ` +
      `${out.filter((r) => r.kind === 'write').length} writes), ratios ${Math.min(...ratios)}–${Math.max(...ratios)}; ` +
      `over the size budget: ${over.length ? over.map((r) => `\`${r.lambda}\``).join(', ') : 'none'}. ` +
      `${writes.length} of them are writes that also load their body validators at the first request with a body ` +
      `(${Math.min(...writes.map((r) => r.validatorsKb!))}–${Math.max(...writes.map((r) => r.validatorsKb!))} KB, timed ` +
      'with the bundle): their bundle and validators together take more than 15 % of the floor. What it would take ' +
      "(an auction write is already one bundle per auction type): validators loaded at their first use rather than all of a Lambda's at its first body " +
      '(`checkWith` is synchronous), and validator names read per function rather than per module (an auction write ' +
      'ships both the new- and the stored-auction schemas); docs/bench.md, section Lambdas, has the figures.',
    '',
  ];
}

/** The `## Lambdas` section of bench/RESULTS.md. */
export function lambdasSection(
  rows: LambdaRow[],
  runs: number,
  floorOnly: { dynamodb: number; s3: number; sockets: number },
): string[] {
  const budget = (r: LambdaRow) => bundleBudgetKb(r.lambda);
  const withinTargets = (r: LambdaRow) => !r.error && r.ratio <= 1.15 && r.kb <= budget(r);
  const within = rows.filter(withinTargets);
  const md = [
    '## Lambdas',
    '',
    'Every Lambda from the one esbuild build (lib/build.ts: the code `cdk synth` ships; ESM, minified, `@aws-sdk/*` external, node22; ' +
      'measured without source maps). Each run is one fresh `node` process (the SDK from node_modules, as the runtime provides it) that ' +
      'first imports the floor, only the SDK clients the Lambda needs: the DynamoDB document client (`@aws-sdk/client-dynamodb` + ' +
      '`@aws-sdk/lib-dynamodb`), plus `@aws-sdk/client-s3` and `@aws-sdk/s3-request-presigner` for the document service routes, which ' +
      'load them at their first file operation, and `@aws-sdk/client-apigatewaymanagementapi` for the room\'s Lambdas (PostToConnection); then the bundle, whose own SDK imports are then cached. "floor ms" is the first ' +
      'import, "import ms" both (the bundle\'s whole cold import, in another order), "ratio" the median over runs of each run\'s ' +
      `import ÷ floor: both times from one process, so the ratio is not the noise between processes. Medians of ${runs} runs. ` +
      `A write's "import ms" also imports the body validators its first request loads ` +
      "(`validators.mjs` beside the bundle: only those its code checks with; a bot's `request-validators.mjs`: all of them; " +
      '"+ validators KB"); a read never loads them. ' +
      'Targets: ratio ≤ 1.15; ≤ 60 KB for a read, ≤ 120 KB for a write (bots are writes), the bundle itself.',
    '',
    `Floor alone (medians over all rows): **DynamoDB ${floorOnly.dynamodb} ms**, **DynamoDB + S3 ${floorOnly.s3} ms**, **DynamoDB + API Gateway ${floorOnly.sockets} ms**. ` +
      `${within.length} of ${rows.length} Lambdas within both targets. Median ratio: ${summary(rows)}.`,
    '',
    '| Lambda | kind | KB | + validators KB | import ms | floor | floor ms | ratio | within |',
    '|---|---|---|---|---|---|---|---|---|',
    `| **floor: DynamoDB document client** | - | - | - | - | DynamoDB | ${floorOnly.dynamodb} | 1 | - |`,
    `| **floor: DynamoDB + S3 client and presigner** | - | - | - | - | DynamoDB + S3 | ${floorOnly.s3} | 1 | - |`,
    `| **floor: DynamoDB + API Gateway Management client** | - | - | - | - | DynamoDB + API Gateway | ${floorOnly.sockets} | 1 | - |`,
    ...rows.map((r) => {
      const ratio = r.error ? '-' : r.ratio;
      const ok = withinTargets(r);
      return `| \`${r.lambda}\` | ${r.kind} | ${r.kb} | ${r.validatorsKb ?? '-'} | ${r.error ? `error: ${r.error}` : r.importMs} | ${r.floor} | ${r.error ? '-' : r.floorMs} | ${ratio} | ${ok ? 'yes' : 'no'} |`;
    }),
    '',
    ...notWithin(rows, withinTargets),
  ];
  return md;
}

const floorMedian = (rows: LambdaRow[], floor: LambdaRow['floor']) =>
  median(rows.filter((r) => r.floor === floor && !r.error).map((r) => r.floorMs)) ?? NaN;
export const floorMedians = (rows: LambdaRow[]) => ({
  dynamodb: floorMedian(rows, 'DynamoDB'),
  s3: floorMedian(rows, 'DynamoDB + S3'),
  sockets: floorMedian(rows, 'DynamoDB + API Gateway'),
});

/**
 * The cold-start check in a few lines (`npm run bench -- --cold`): the median and worst import ÷ floor against their
 * targets (≤ 1.15, worst ≤ 1.35), the Lambdas over 1.15, and the largest bundle of each budget.
 */
export function coldSummary(rows: LambdaRow[], runs: number): string[] {
  const ok = rows.filter((r) => !r.error);
  const ratios = ok.map((r) => r.ratio);
  const worst = Math.max(...ratios);
  const over = ok.filter((r) => r.ratio > 1.15).sort((a, b) => b.ratio - a.ratio);
  const budgets = [...new Set(rows.map((r) => bundleBudgetKb(r.lambda)))].sort((a, b) => a - b);
  const largest = budgets.map((budget) => {
    const top = rows.filter((r) => bundleBudgetKb(r.lambda) === budget).sort((a, b) => b.kb - a.kb)[0];
    const past = rows.filter((r) => bundleBudgetKb(r.lambda) === budget && r.kb > budget).length;
    return `  budget ${budget} KB: largest ${top.kb} KB \`${top.lambda}\`${past ? `, ${past} OVER` : ''}`;
  });
  const floors = floorMedians(rows);
  return [
    `Cold imports: ${rows.length} Lambdas, ${runs} runs each (one fresh process a run: the floor, then the bundle and its validators).`,
    `  floor: DynamoDB ${floors.dynamodb} ms, DynamoDB + S3 ${floors.s3} ms, DynamoDB + API Gateway (the room) ${floors.sockets} ms`,
    `  median ratio ${round(median(ratios), 2)} (target ≤ 1.15), worst ${worst} (target ≤ 1.35)${rows.length - ok.length ? `, ${rows.length - ok.length} FAILED to import` : ''}`,
    `  over 1.15: ${over.length}${over.length ? `: ${over.map((r) => `${r.lambda} ${r.ratio}`).join(', ')}` : ''}`,
    'Bundle sizes:',
    ...largest,
  ];
}
