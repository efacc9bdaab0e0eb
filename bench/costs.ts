/**
 * The cost of each kind of change in DynamoDB (`npm run bench -- --costs`, and in a full run): the walk of
 * bench/cost-scenario.ts against a gateway in this process over its own DynamoDB Local, once as the service runs and
 * once with the change log turned off (the local runtime's `changeLog: false`: no revision written, so a change that
 * only moves its root is one conditional Put), each on a table of its own. The figures are DynamoDB Local's
 * (`ReturnConsumedCapacity`) and deterministic: no latency here. Then what a month of such writes costs on demand at the
 * two traffic levels of docs/operations.md ("What a month costs").
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type ChangeCost, measureChanges } from './cost-scenario.ts';

/** On-demand prices of us-east-1 (aws.amazon.com/dynamodb/pricing/on-demand, checked November 2026), USD a million. */
export const PRICES = { write: 0.625, read: 0.125, region: 'us-east-1' } as const;
/** docs/operations.md's two traffic levels, and its share of writes (about one request in five). */
const MONTH_S = 2_592_000;
export const LEVELS = [10, 1_000] as const;
const WRITE_SHARE = 0.2;

export interface CostRow {
  kind: string;
  on: ChangeCost;
  off: ChangeCost;
}

/** Runs the walk with the log and without it, each against a fresh table of one DynamoDB Local. */
export async function measureCosts(): Promise<CostRow[]> {
  const files = mkdtempSync(join(tmpdir(), 'agora-costs-'));
  Object.assign(process.env, {
    AWS_ACCESS_KEY_ID: 'local',
    AWS_SECRET_ACCESS_KEY: 'local',
    AGORA_FILES_DIR: files,
  });
  const { startDynamoDbLocal } = await import('../lib/local/dynamodb-local.ts');
  const { createTable } = await import('../lib/local/table.ts');
  const { startGateway } = await import('../lib/local/gateway.ts');
  const { resetConfig, setLocal } = await import('../functions/platform/config.ts');
  const { seedDevKeys } = await import('../bin/dev-keys.ts');
  const { seedDevOrganizations } = await import('../bin/dev-organizations.ts');
  const dynamo = await startDynamoDbLocal();
  process.env.DYNAMODB_ENDPOINT = dynamo.endpoint;
  const walk = async (changeLog: boolean) => {
    process.env.TABLE_NAME = `costs_${randomBytes(4).toString('hex')}`;
    resetConfig();
    await createTable(dynamo.endpoint, process.env.TABLE_NAME);
    await seedDevKeys();
    await seedDevOrganizations();
    const gateway = await startGateway();
    setLocal({ changeLog });
    try {
      return await measureChanges(gateway.url);
    } finally {
      setLocal({ changeLog: true });
      await gateway.close();
    }
  };
  try {
    // A first walk warms what a warm Lambda keeps between requests (the calendar, the keys), then both are measured.
    await walk(true);
    const off = await walk(false);
    const on = await walk(true);
    return on.map((row, i) => ({ kind: row.kind, on: row, off: off[i] }));
  } finally {
    dynamo.stop();
    rmSync(files, { recursive: true, force: true });
  }
}

/** USD a month when every write at `perSecond` requests (a fifth of them writes) costs what `c` did. */
export const monthUsd = (c: Pick<ChangeCost, 'read' | 'write'>, perSecond: number) =>
  ((perSecond * MONTH_S * WRITE_SHARE) / 1e6) * (c.write * PRICES.write + c.read * PRICES.read);

const usd = (x: number) => `$${x.toFixed(2)}`;
const units = (x: number) => String(Math.round(x * 10) / 10);

/** The section of bench/RESULTS.md (and the table docs/bench.md and docs/operations.md carry). */
export function costsSection(rows: CostRow[]): string[] {
  const mean = (pick: (r: CostRow) => number) => rows.reduce((n, r) => n + pick(r), 0) / rows.length;
  const average = {
    on: { read: mean((r) => r.on.read), write: mean((r) => r.on.write) },
    off: { read: mean((r) => r.off.read), write: mean((r) => r.off.write) },
  };
  const [low, high] = LEVELS;
  return [
    '## Cost per change',
    '',
    `\`npm run bench -- --costs\` (bench/costs.ts): one walk of every kind of change (bench/cost-scenario.ts) through the local gateway, ` +
      "each call's DynamoDB requests, the capacity units DynamoDB Local reports for them (`ReturnConsumedCapacity: INDEXES`: " +
      'the table and its indexes; on demand, read and write request units) and the revision items written (DynamoDB item ' +
      'size); then the same walk with the change log off (the local runtime alone can turn it off: no revision, so a change ' +
      'of the root alone is one conditional Put instead of a transaction). A month: every write at that traffic (a fifth of ' +
      `the requests, as docs/operations.md counts) costing what this kind does, on demand in ${PRICES.region} ` +
      `($${PRICES.write} a million write units, $${PRICES.read} a million read units).`,
    '',
    `| change | requests | read units | write units | revisions (bytes) | without the log: requests, read, write units | the log's write units | a month at ${low}/s | at ${high.toLocaleString('en')}/s | without the log, at ${high.toLocaleString('en')}/s |`,
    '|---|---|---|---|---|---|---|---|---|---|',
    ...rows
      .map(({ kind, on, off }) =>
        [
          kind,
          on.requests,
          units(on.read),
          units(on.write),
          on.revisions ? `${on.revisions} (${on.revisionBytes.toLocaleString('en')})` : '0',
          `${off.requests}, ${units(off.read)}, ${units(off.write)}`,
          `${units(on.write - off.write)} (${Math.round((100 * (on.write - off.write)) / on.write)} %)`,
          usd(monthUsd(on, low)),
          usd(monthUsd(on, high)),
          usd(monthUsd(off, high)),
        ].join(' | '),
      )
      .map((line) => `| ${line} |`),
    `| **mean of the kinds** | | ${units(average.on.read)} | ${units(average.on.write)} | | ${units(average.off.read)}, ${units(average.off.write)} (read, write) | ${units(average.on.write - average.off.write)} | ${usd(monthUsd(average.on, low))} | ${usd(monthUsd(average.on, high))} | ${usd(monthUsd(average.off, high))} |`,
    '',
  ];
}
