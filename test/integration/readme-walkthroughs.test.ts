import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { useService } from '../support/service.ts';
import { useChangeStream } from '../support/webhooks.ts';

/**
 * The walkthroughs of docs/api.md (linked from the README), run as written (bash, curl, jq, `npm run bot`) against a
 * service on a port that is not the default one: AGORA_URL names it, as the page says, and nothing else changes.
 */
const ROOT = resolve(import.meta.dirname, '../..');
const service = useService({ changeStream: true });
// The listings read the journal, which the table's stream feeds: what `npm start` runs beside the gateway.
useChangeStream();
// The walkthroughs' `mktemp -d` folders land here (TMPDIR), removed after: the tests leave nothing in the OS temp folder.
const scratch = mkdtempSync(join(tmpdir(), 'agora-walkthroughs-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** The first ```sh block after the heading. */
function walkthrough(heading: string): string {
  const readme = readFileSync(join(ROOT, 'docs/api.md'), 'utf8');
  const from = readme.indexOf(heading);
  expect(from, heading).toBeGreaterThan(-1);
  const block = /```sh\n([\s\S]*?)```/.exec(readme.slice(from));
  return block![1];
}

function bash(script: string): Promise<{ code: number; out: string; err: string }> {
  return new Promise((done) => {
    execFile(
      'bash',
      ['-euo', 'pipefail', '-c', script],
      { cwd: ROOT, env: { ...process.env, AGORA_URL: service.url, TMPDIR: scratch }, timeout: 240_000 },
      (error, out, err) => done({ code: error ? Number((error as { code?: number }).code ?? 1) : 0, out, err }),
    );
  });
}

describe('the walkthroughs of docs/api.md on a non-default port', () => {
  it('checks jq and curl are there (the walkthroughs need them)', async () => {
    const r = await bash('command -v jq && command -v curl');
    expect(r.code, 'install jq and curl (apt-get install -y jq curl)').toBe(0);
  });

  it('A sale, end to end: the lot ends sold and its assets complete', async () => {
    expect(service.url).not.toMatch(/:6543$/);
    const r = await bash(walkthrough('### A sale, end to end'));
    expect(r.code, r.err).toBe(0);
    const lines = r.out.trim().split('\n');
    expect(lines).toContain('active.salable');
    expect(lines).toContain('complete');
    expect(lines.at(-1)).toMatch(/"status":"sold"/);
    // The auction ran in the room: the command-line bidders' answers, the room's end, and its results on the auction.
    const json = (line: string) => (line.startsWith('{') ? JSON.parse(line) : undefined);
    const bids = lines.map(json).filter((x) => x?.outcome);
    expect(bids).toEqual([
      { outcome: 'accepted', amount: 120000, stage: 'dutch_40' },
      { outcome: 'sealed', amount: 125000, stage: 'sealedbid' },
      { outcome: 'accepted', amount: 130000, stage: 'bestbid' },
    ]);
    const room = lines.map(json).find((x) => x?.stage === 'announcement');
    expect(room, r.out).toMatchObject({ ended: 'finished', posted: true });
    expect(room.results.map((x: { amount: number }) => x.amount)).toEqual([130000, 125000]);
    expect(lines).toContain('active.qualification');
    const awards = lines.map(json).filter((x) => x?.status?.startsWith('pending') && 'amount' in x);
    expect(awards).toEqual([
      { status: 'pending', amount: room.results[0].amount },
      { status: 'pending.waiting', amount: 125000 },
    ]);
    const sold = lines.indexOf('sold');
    expect(sold, r.out).toBeGreaterThan(-1);
    expect(lines[sold + 1]).toBe('complete');
  }, 240_000);

  it('A landlease auction, to its award: the bids through their steps, two rounds, the award', async () => {
    const r = await bash(walkthrough('### A landlease auction, to its award'));
    expect(r.code, r.err).toBe(0);
    const lines = r.out.trim().split('\n');
    for (const status of ['draft', 'active.tendering', 'active.enquiry', 'eligibilityDocuments'])
      expect(lines, r.out).toContain(status);
    const json = (line: string) => (line.startsWith('{') ? JSON.parse(line) : undefined);
    expect(lines.map(json).filter((x) => x?.bidNumber)).toEqual([
      { status: 'active', qualified: true, bidNumber: 1 },
      { status: 'active', qualified: true, bidNumber: 2 },
    ]);
    expect(lines.map(json).find((x) => x?.numberOfBids)).toMatchObject({ status: 'active.auction', numberOfBids: 2 });
    expect(lines.map(json).filter((x) => x?.outcome)).toEqual([
      { outcome: 'accepted', amount: 101000, stage: 'round_1' },
      { outcome: 'accepted', amount: 104000, stage: 'round_2' },
    ]);
    const room = lines.map(json).find((x) => x?.results);
    expect(room, r.out).toMatchObject({ ended: 'no-bid-in-round', posted: true });
    expect(room.results.map((x: { amount: number }) => x.amount)).toEqual([104000, 101000]);
    expect(lines).toContain('active.qualification');
    expect(lines.map(json).filter((x) => x?.status === 'pending')).toEqual([
      expect.objectContaining({ status: 'pending', amount: 104000 }),
    ]);
  }, 240_000);

  it("An asset's life: from draft to deleted, with the directory's fill-in", async () => {
    const r = await bash(walkthrough("### An asset's life"));
    expect(r.code, r.err).toBe(0);
    expect(r.out).toContain('"Уточнений опис"');
    expect(r.out).toContain('"deleted"');
    expect(r.out).toContain('"uri": "http://www.dus.gov.ua/"');
    // The listing waits for the journal, so the asset is in it.
    const assetID = /"assetID": "([^"]+)"/.exec(r.out)![1];
    expect(r.out.split('\n'), r.out).toContain(JSON.stringify({ assetID, status: 'deleted' }));
    expect(readdirSync(scratch).length, 'the walkthrough made its folder under TMPDIR').toBeGreaterThan(0);
  }, 240_000);

  it('Webhooks: subscribe, then rotate the secret and ping with no body, on a non-default port', async () => {
    const r = await bash(walkthrough('## Webhooks'));
    expect(r.code, r.err).toBe(0);
    const lines = r.out.trim().split('\n');
    expect(JSON.parse(lines[0]!)).toMatchObject({ id: expect.any(String), secret: expect.stringMatching(/^whsec_/) });
    expect(lines.slice(1)).toEqual(['["secret"]', 'webhook.ping']);
  }, 240_000);
});
