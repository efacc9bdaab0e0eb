import { execFile } from 'node:child_process';
import { join, resolve } from 'node:path';
import { DeleteCommand, GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { afterEach, describe, expect, it } from 'vitest';
import { linksAsPaths, verifyChain } from '../../functions/domain/kernel/history.ts';
import { documentClient, tableName } from '../../functions/store/client.ts';
import { CURRENT_MODEL, isModelItem, MIGRATION_STEPS } from '../../functions/store/migration-steps.ts';
import { asCaller } from '../../functions/store/aws-calls.ts';
import { migrate as migrateTable } from '../../functions/store/migrations.ts';
import { activeSubscriptions } from '../../functions/store/subscription-repository.ts';
import { SCHEMA_VERSION } from '../../functions/store/table-design.ts';
import { addDocument, assetIn } from '../support/assets.ts';
import { AUCTIONS, INSIDER, insiderBid, kyivDayIn, SANDBOX, tenderingInsider } from '../support/auctions.ts';
import { aLandleaseAuction, aLot } from '../support/builders.ts';
import { client } from '../support/http.ts';
import { useService } from '../support/service.ts';
import { startChangeStream } from '../../lib/local/change-stream.ts';
import { scanTable } from './reliability/fuzz-support.ts';
import { setFaults as setFaultsOf } from '../support/faults.ts';

/**
 * The data migrations over a table an older release wrote: objects made through the API, then rewritten with raw
 * DynamoDB puts as that release stored them (no transfer token, absolute document links on the host of the day,
 * `schemaVersion` 1 or none). A dry run counts and writes nothing; a run that crashes half way (injected DynamoDB
 * faults: every call after the n-th fails) resumes from its saved positions; a second run finds nothing to do; the
 * owners can then hand their objects over, and the links answer on the service's own host.
 */
const ROOT = resolve(import.meta.dirname, '../..');
// The table streams its changes; the journal's pipe runs only where a test starts it (a crash test counts every call).
const service = useService({ changeStream: true });
const api = client(() => service.url);
const OLD_HOST = 'http://agora-old.example:6543';

// As the migrations Lambda runs it (functions/ops/migrate.ts): its calls are checked against that function's role.
const migrate = (options?: Parameters<typeof migrateTable>[0]) => asCaller('migrate', () => migrateTable(options));
const setFaults = (config: Record<string, unknown>) => setFaultsOf(service.url, config);
afterEach(() => setFaults({}));

/**
 * Rewrites every model item as the release before transfers wrote it: without a change log too (no revision, no
 * chain head on the roots), budget items without their `rev`.
 */
async function ageTable(): Promise<{ roots: number; links: number }> {
  let roots = 0;
  let links = 0;
  const all = await scanTable();
  // An old release had no change log and no journal (its feeds read an index), and no webhook cursors.
  const journal = (i: Record<string, any>) =>
    ['REV#', 'JOURNAL#', 'JOURNALED#', 'LIST#'].some((p) => String(i.PK).startsWith(p)) ||
    String(i.SK).startsWith('CURSOR#');
  for (const item of all.filter(journal))
    await documentClient().send(new DeleteCommand({ TableName: tableName(), Key: { PK: item.PK, SK: item.SK } }));
  // Nor a list of active subscriptions in the table: they were on GSI1, each with what the fan-out matched on.
  for (const row of all.filter((i) => i.PK === 'SUBSCRIPTIONS' && String(i.SK).startsWith('ACTIVE#'))) {
    await documentClient().send(new DeleteCommand({ TableName: tableName(), Key: { PK: row.PK, SK: row.SK } }));
    const root = all.find((i) => i.PK === `SUBSCRIPTION#${row.feed.id}` && i.SK === '#ROOT')!;
    const old = { ...root, GSI1PK: 'SUBSCRIPTIONS', GSI1SK: row.feed.id, feed: row.feed };
    await documentClient().send(new PutCommand({ TableName: tableName(), Item: old }));
  }
  const items = all.filter(isModelItem);
  for (const [i, item] of items.entries()) {
    const { history: _, ...old }: Record<string, any> = { ...item };
    if (old.SK === '#BUDGET') delete old.rev;
    if (i % 2) old.schemaVersion = 1;
    else delete old.schemaVersion;
    if (old.internal?.transferTokenHash) {
      const { transferTokenHash: _, ...internal } = old.internal;
      old.internal = internal;
      roots++;
    }
    if (typeof old.data?.url === 'string' && old.data.url.startsWith('/api/')) {
      old.data = { ...old.data, url: `${OLD_HOST}${old.data.url}` };
      links++;
    }
    await documentClient().send(new PutCommand({ TableName: tableName(), Item: old }));
  }
  return { roots, links };
}

const cli = (args: string[]) =>
  new Promise<{ code: number; out: string; err: string }>((done) =>
    execFile(
      join(ROOT, 'node_modules/.bin/tsx'),
      [join(ROOT, 'bin/migrate.ts'), ...args],
      { cwd: ROOT, env: process.env, timeout: 60_000 },
      (error, out, err) => done({ code: error ? Number((error as { code?: number }).code ?? 1) : 0, out, err }),
    ),
  );

describe('data migrations', () => {
  it('brings an old release’s items to the current model: dry run, crash, resume, then nothing left', async () => {
    expect(CURRENT_MODEL).toBe(SCHEMA_VERSION);
    const lots = [];
    for (let i = 0; i < 12; i++) {
      const res = await api.post('/api/0.1/lots', aLot({ title: `old lot ${i}` }));
      expect(res.status).toBe(201);
      lots.push({ id: res.body.data.id as string, token: res.body.access.token as string });
    }
    const asset = await assetIn(api, 'bounce', 'pending');
    expect((await addDocument(api, asset)).status).toBe(201);
    const auction = await api.post(AUCTIONS, aLandleaseAuction(kyivDayIn(21), SANDBOX));
    expect(auction.status).toBe(201);
    const hook = await api.post('/api/0.1/subscriptions', { url: 'http://127.0.0.1:9/hook', events: ['*'] });
    expect(hook.status).toBe(201);
    const cursorsOf = async () =>
      (await scanTable()).filter(
        (i) => i.PK === `SUBSCRIPTION#${hook.body.data.id}` && String(i.SK).startsWith('CURSOR#'),
      );
    expect(await cursorsOf()).toHaveLength(10);
    const listed = async () => (await activeSubscriptions()).list.map((s) => s.id);
    expect(await listed()).toEqual([hook.body.data.id]);
    const aged = await ageTable();
    expect(await cursorsOf()).toHaveLength(0);
    expect((await scanTable()).filter((i) => String(i.SK).startsWith('ACTIVE#'))).toEqual([]);
    expect(aged.roots).toBe(14); // 12 lots, the asset, the auction
    expect(aged.links).toBeGreaterThanOrEqual(1);

    // An old lot cannot be handed over: no transfer token (a draft, it answers another key as an unknown id does).
    const transfer = await api.post('/api/0.1/transfers', {}, { as: 'broker2' });
    const refused = await api.post(
      `/api/0.1/lots/${lots[0].id}/ownership`,
      { id: transfer.body.data.id, transfer: lots[0].token },
      { as: 'broker2' },
    );
    expect(refused.status).toBe(404);

    const model = (await scanTable()).filter(isModelItem);
    // Every item of the old release but its budget items (counters, written by ADD without a schemaVersion by every
    // release: no step changes them); the transfer just made is at the current model already.
    const versioned = model.filter((i) => i.SK !== '#BUDGET');
    const stale = new Set(versioned.filter((i) => i.schemaVersion !== SCHEMA_VERSION).map((i) => `${i.PK} ${i.SK}`));
    expect(stale.size).toBe(versioned.length - 1);
    const before = JSON.stringify(await scanTable());
    const dry = await migrate({ dryRun: true, segments: 3, pageSize: 4 });
    expect(dry).toMatchObject({ dryRun: true, done: true, scanned: model.length, upgraded: stale.size });
    expect(dry.steps).toEqual({
      'transfer-tokens': aged.roots,
      'document-links': aged.links,
      'bid-links': 0,
      'first-revisions': aged.roots,
      journal: aged.roots,
      'webhook-cursors': 1,
      'active-list': 1,
    });
    expect(JSON.stringify(await scanTable())).toBe(before); // nothing written, no run state either

    // A crash half way: every DynamoDB call after the 60th of about 125 fails, as if the process died there. One
    // segment, so the calls come in one order: its first page (at most about 50 calls: first revisions read and write
    // whole objects) is recorded before the crash, whatever the Scan's order. With three, the crash sometimes came
    // before any segment recorded a page, and the next run started over instead of resuming.
    await setFaults({ crashAfter: 60 });
    await expect(migrate({ segments: 1, pageSize: 4 })).rejects.toThrow();
    await setFaults({});
    const half = (await scanTable()).filter(isModelItem);
    const upgradedByCrash = half.filter((i) => stale.has(`${i.PK} ${i.SK}`) && i.schemaVersion === SCHEMA_VERSION);
    expect(upgradedByCrash.length).toBeGreaterThan(0);
    expect(upgradedByCrash.length).toBeLessThan(stale.size);

    const resumed = await migrate({ segments: 3, pageSize: 4 });
    expect(resumed).toMatchObject({ done: true, resumed: true });
    expect(resumed.scanned).toBeLessThan(model.length); // it went on from the crashed run's last recorded page
    expect(resumed.upgraded + upgradedByCrash.length).toBe(stale.size); // each item upgraded once
    // The subscription has its cursors, at the lanes' heads as the run found them: it is owed what follows; and it is
    // in the fan-out's list again, off the index.
    expect(await cursorsOf()).toHaveLength(10);
    expect(await listed()).toEqual([hook.body.data.id]);
    const hookRoot = (await scanTable()).find((i) => i.PK === `SUBSCRIPTION#${hook.body.data.id}` && i.SK === '#ROOT')!;
    expect(hookRoot).not.toHaveProperty('GSI1PK');
    const after = (await scanTable()).filter(isModelItem);
    expect(after.filter((i) => i.SK !== '#BUDGET' && i.schemaVersion !== SCHEMA_VERSION)).toEqual([]);
    for (const root of after.filter((i) => i.SK === '#ROOT' && !String(i.PK).startsWith('TRANSFER#')))
      expect(root.internal.transferTokenHash).toBe(root.tokenHash);
    expect(JSON.stringify(after)).not.toContain(OLD_HOST);
    // Each object got its first revision, its present view: the chain verifies and replays into its GET.
    for (const lot of lots) {
      const log = await api.get(`/api/0.1/lots/${lot.id}/revisions`);
      expect(log.body.data).toHaveLength(1);
      expect(log.body.data[0].author).toEqual({ role: 'admin', name: 'migration' });
      expect(verifyChain(log.body.data)).toEqual({
        breaks: [],
        view: (await api.get(`/api/0.1/lots/${lot.id}`)).body.data,
      });
    }
    const assetLog = (await api.get(`${asset.url}/revisions`)).body.data;
    expect(verifyChain(assetLog).view).toEqual(linksAsPaths((await api.get(asset.url)).body.data, service.url));
    // And its log taken into the journal (no pipe runs here: the migration appended it), so the feeds list it.
    expect((await api.get('/api/2.4/assets')).body.data.map((r: { id: string }) => r.id)).toContain(asset.id);
    const changes = (await api.get('/api/2.4/assets?feed=changes')).body.data as { id: string; revision: number }[];
    expect(changes.filter((r) => r.id === asset.id).map((r) => r.revision)).toEqual([1]);

    // Done: a run finds it so; scanning again changes nothing (each step decides by content).
    expect(await migrate()).toMatchObject({ done: true, alreadyDone: expect.any(String), scanned: 0 });
    expect(await migrate({ again: true })).toMatchObject({ done: true, upgraded: 0, scanned: model.length });

    // The owner's token is the old lot's transfer token; the document link answers on this service's host.
    const taken = await api.post(
      `/api/0.1/lots/${lots[0].id}/ownership`,
      { id: transfer.body.data.id, transfer: lots[0].token },
      { as: 'broker2' },
    );
    expect(taken.status, JSON.stringify(taken.body)).toBe(200);
    const documents = await api.get(`${asset.url}/documents`);
    const file = documents.body.data.find((d: { url: string }) => d.url.includes('download='));
    expect(file.url).toMatch(/^https?:\/\/[^/]+\/api\/2.4\/assets\/[0-9a-f]{32}\/documents\/[0-9a-f]{32}\?download=/);
    expect(file.url).not.toContain(OLD_HOST);
  }, 120_000);

  it('finds an old item the service rewrote before the migration ran (current schemaVersion, old content)', async () => {
    const res = await api.post('/api/0.1/lots', aLot({ title: 'raced lot' }));
    const key = { PK: `LOT#${res.body.data.id}`, SK: '#ROOT' };
    const { Item } = await documentClient().send(new GetCommand({ TableName: tableName(), Key: key }));
    const { transferTokenHash: _, ...internal } = Item!.internal;
    await documentClient().send(
      new PutCommand({ TableName: tableName(), Item: { ...Item, internal, schemaVersion: 1 } }),
    );
    const patched = await api.patch(
      `/api/0.1/lots/${res.body.data.id}`,
      { status: 'pending' },
      {
        token: res.body.access.token,
      },
    );
    expect(patched.status).toBe(200);
    await migrate({ again: true });
    const { Item: now } = await documentClient().send(new GetCommand({ TableName: tableName(), Key: key }));
    // The service rewrote it (its schemaVersion is current) but not its content: the step found it by content.
    expect(now!.internal.transferTokenHash).toBe(now!.tokenHash);
    expect(now!.data.status).toBe('pending');
  }, 60_000);

  it('drops the participation link an older release stored on a bid; its owner still reads a fresh one', async () => {
    const a = await tenderingInsider(api);
    const bid = await insiderBid(api, a.id);
    const key = { PK: `AUCTION#${a.id}`, SK: `BID#${bid.id}` };
    const { Item } = await documentClient().send(new GetCommand({ TableName: tableName(), Key: key }));
    expect(Item!.data.participationUrl).toBeUndefined(); // this release never stores it
    const stale = `${OLD_HOST}/insider-auctions/${a.id}?bidder_id=${bid.id}&signature=old`;
    await documentClient().send(
      new PutCommand({ TableName: tableName(), Item: { ...Item, data: { ...Item!.data, participationUrl: stale } } }),
    );
    const report = await migrate({ again: true });
    expect(report.steps['bid-links']).toBeGreaterThanOrEqual(1);
    const { Item: now } = await documentClient().send(new GetCommand({ TableName: tableName(), Key: key }));
    expect(now!.data.participationUrl).toBeUndefined();
    expect(now!.schemaVersion).toBe(SCHEMA_VERSION);
    const read = await api.get(`${INSIDER}/${a.id}/bids/${bid.id}`, { as: 'broker2', token: bid.token });
    expect(read.body.data.participationUrl).toBe(bid.bid.participationUrl);
    expect(read.body.data.participationUrl).not.toContain(OLD_HOST);
  }, 60_000);

  it('npm run migrate: a dry run prints the counts per step; wrong arguments are exit 2', async () => {
    const [dry, wrong] = await Promise.all([cli(['--dry-run']), cli(['--segments', 'x'])]);
    expect(dry.code, dry.err).toBe(0);
    expect(dry.out).toMatch(
      new RegExp(
        `^dry run: would upgrade \\d+ of \\d+ items in local table .* to model ${CURRENT_MODEL} \\(${MIGRATION_STEPS.map((s) => `${s.version} ${s.name}: \\d+`).join(', ')}\\)`,
      ),
    );
    expect(wrong.code).toBe(2);
    expect(wrong.err).toMatch(/--segments: a whole number/);
  }, 60_000);

  it('npm run migrate --dry-run on a table this release wrote would upgrade nothing, its budget items included', async () => {
    await migrate({ again: true });
    expect((await api.post('/api/0.1/lots', aLot({ title: 'a lot of this release' }))).status).toBe(201);
    const a = await tenderingInsider(api);
    await insiderBid(api, a.id, 'broker2');
    const budgets = (await scanTable()).filter((i) => i.SK === '#BUDGET' && i.PK === `AUCTION#${a.id}`);
    expect(budgets).toHaveLength(1);
    // In AWS the pipe journals what this release writes as it writes it: here, once, now.
    const pipe = await startChangeStream({
      endpoint: process.env.DYNAMODB_ENDPOINT!,
      table: tableName(),
      intervalMs: 50,
    });
    await pipe.drained();
    await pipe.stop();
    const dry = await cli(['--dry-run']);
    expect(dry.code, dry.err).toBe(0);
    expect(dry.out).toMatch(
      new RegExp(
        `^dry run: would upgrade 0 of \\d+ items in local table .* \\(${MIGRATION_STEPS.map((s) => `${s.version} ${s.name}: 0`).join(', ')}\\)`,
      ),
    );
  }, 60_000);

  it('loses no budget counter update of 8 writers bidding while it runs, and gives each auction its first revision', async () => {
    const auctions: { id: string }[] = [];
    for (let i = 0; i < 12; i++) auctions.push(await tenderingInsider(api));
    for (const a of auctions) await insiderBid(api, a.id, 'broker2');
    await ageTable();
    // 8 writers bid on the 12 auctions while the migration rewrites their roots and gives them their first revision.
    const writers = Array.from({ length: 8 }, async (_, w) => {
      for (let k = 0; k < 3; k++) await insiderBid(api, auctions[(w * 3 + k) % 12].id, w % 2 ? 'broker' : 'broker2');
    });
    const [report] = await Promise.all([migrate({ again: true, segments: 4, pageSize: 2 }), ...writers]);
    expect(report.done).toBe(true);
    for (const a of auctions) {
      const items = (await scanTable()).filter((i) => i.PK === `AUCTION#${a.id}`);
      const bids = items.filter((i) => /^BID#[^#]+$/.test(String(i.SK))).length;
      const budget = items.find((i) => i.SK === '#BUDGET');
      expect(budget?.count_BID, `auction ${a.id}: its budget counts every bid`).toBe(bids);
      const log = (await api.get(`${INSIDER}/${a.id}/revisions`)).body.data;
      expect(log).toHaveLength(1);
      expect(verifyChain(log).view).toEqual((await api.get(`${INSIDER}/${a.id}`)).body.data);
    }
  }, 180_000);
});
