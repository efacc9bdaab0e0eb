import { describe, expect, it } from 'vitest';
import { CURRENT_MODEL, MIGRATION_STEPS, upgradeItem } from '../../../functions/store/migration-steps.ts';
import { LANES } from '../../../functions/store/cursors.ts';
import { SCHEMA_VERSION } from '../../../functions/store/table-design.ts';

const ID = 'a'.repeat(32);
const DOC = 'b'.repeat(32);
const path = `/api/2.4/assets/${ID}/documents/${DOC}?download=${'c'.repeat(32)}`;
const oldLot = {
  PK: `LOT#${ID}`,
  SK: '#ROOT',
  entity: 'lot',
  rev: 3,
  tokenHash: 'f'.repeat(64),
  internal: { lastOutcome: 'x' },
  data: {
    id: ID,
    documents: [{ url: `http://old.example:6543${path}` }, { url: 'https://example.org/api/x?download=1' }],
  },
};

describe('migration steps', () => {
  it('are numbered in order and end at the model this release writes', () => {
    const versions = MIGRATION_STEPS.map((s) => s.version);
    expect(versions).toEqual([...versions].sort((a, b) => a - b));
    expect(new Set(versions).size).toBe(versions.length);
    expect(CURRENT_MODEL).toBe(SCHEMA_VERSION);
  });

  it('knows every journal lane a subscription has a cursor on (a new lane needs a step that gives it one)', () => {
    // Subscriptions get a cursor per lane when made (store/cursors.ts LANES); one made before a lane existed has none
    // for it, and hears nothing of it, until a migration gives it one (as step 7 `webhook-cursors` did, at the heads).
    // A new asset or auction type adds two lanes: add such a step and the lanes here.
    expect(LANES.map((l) => l.lane)).toEqual([
      'lots',
      'lots#test',
      'assets.bounce',
      'assets.bounce#test',
      'assets.basic',
      'assets.basic#test',
      'auctions-landlease',
      'auctions-landlease#test',
      'auctions-dgfInsider',
      'auctions-dgfInsider#test',
    ]);
  });

  it('gives an old root the owner token as transfer token, makes own links paths, leaves other links and state', () => {
    const upgraded = upgradeItem(oldLot)!;
    expect(upgraded.steps).toEqual(['transfer-tokens', 'document-links']); // a lot has no bids
    expect(upgraded.item).toMatchObject({
      schemaVersion: SCHEMA_VERSION,
      rev: 3, // the runner moves the revision when it writes
      internal: { lastOutcome: 'x', transferTokenHash: oldLot.tokenHash },
      data: { documents: [{ url: path }, { url: 'https://example.org/api/x?download=1' }] },
    });
    expect(upgradeItem(upgraded.item)).toBeUndefined(); // applied twice: nothing the second time
  });

  it('stamps an item that needs nothing else; leaves a current one and a child without a token alone', () => {
    const child = { PK: `LOT#${ID}`, SK: `DOC#${DOC}#0001`, entity: 'document', data: { url: path } };
    expect(upgradeItem(child)).toEqual({ item: { ...child, schemaVersion: SCHEMA_VERSION }, steps: [] });
    expect(upgradeItem({ ...child, schemaVersion: SCHEMA_VERSION })).toBeUndefined();
    const transfer = { PK: `TRANSFER#${ID}`, SK: '#ROOT', tokenHash: 'e'.repeat(64), schemaVersion: 1, data: {} };
    expect(upgradeItem(transfer)?.steps).toEqual([]);
  });

  it("drops a bid's stored participation link, and only a bid's: its documents and other objects keep their fields", () => {
    const link = `https://auction.old.example/insider-auctions/${ID}?bidder_id=${DOC}&signature=x`;
    const bid = { PK: `AUCTION#${ID}`, SK: `BID#${DOC}`, entity: 'bid', data: { id: DOC, participationUrl: link } };
    const upgraded = upgradeItem(bid)!;
    expect(upgraded.steps).toEqual(['bid-links']);
    expect(upgraded.item.data).toEqual({ id: DOC });
    expect(upgradeItem(upgraded.item)).toBeUndefined();
    const bidDocument = { ...bid, SK: `BID#${DOC}#DOC#${DOC}#0001`, data: { participationUrl: link } };
    expect(upgradeItem(bidDocument)?.steps).toEqual([]);
    const lotChild = { ...bid, PK: `LOT#${ID}` };
    expect(upgradeItem(lotChild)?.item.data).toEqual(bid.data);
  });
});
