import { beforeAll, describe, expect, it } from 'vitest';
import type { Aggregate } from '../../../functions/domain/kernel/aggregate.ts';
import { sha256 } from '../../../functions/domain/kernel/ids.ts';
import {
  changeWrites,
  childItem,
  createWrites,
  fromItems,
  rootItem,
  type AggregateKind,
} from '../../../functions/store/aggregates.ts';
import { apiKeyItem } from '../../../functions/store/api-keys.ts';
import { organizationItem } from '../../../functions/store/organizations.ts';
import { nextSequenceUpdate } from '../../../functions/store/sequences.ts';
import { FEED_VIEW, keys, ROOT_SK, SCHEMA_VERSION } from '../../../functions/store/table-design.ts';
import { transactionItems } from '../../../functions/store/transactions.ts';
import { dueWorkQuery } from '../../../functions/store/work.ts';
import { resetConfig } from '../../../functions/platform/config.ts';

/** The store's write builders: the DynamoDB inputs they build, checked offline (no table, no network). */
const TABLE = 'agora-unit';
beforeAll(() => {
  process.env.TABLE_NAME = TABLE; // the builders name the table per call
  resetConfig(); // read at first use: this file's table, whatever an earlier file of this worker read
});

interface Thing {
  id: string;
  status: string;
  dateModified: string;
  mode?: string;
}

const ID = 'a'.repeat(32);
/** 2026-01-01T10:00:00.000000Z in microseconds. */
const DUE = Date.UTC(2026, 0, 1, 10) * 1000;

/** A kind whose drafts are off the feed and whose `waiting` things are due for a bot. */
const THING: AggregateKind<Thing> = {
  kind: 'THING',
  entity: 'thing',
  notFound: 'thing_id',
  indexing: (root) => ({
    ...(root.status !== 'draft' && { feed: { name: 'THINGS', test: root.mode === 'test' } }),
    ...(root.status === 'waiting' && { work: { bot: 'sweeper', due: DUE } }),
  }),
  dateModified: (root) => root.dateModified,
  id: (root) => root.id,
};

/** The same kind with a change log: its public view is the root and its children's data. */
const LOGGED: AggregateKind<Thing> = {
  ...THING,
  history: { objectKind: 'lot', view: (a) => ({ ...a.root, children: a.children.map((c) => c.data) }) },
};

const BY = { role: 'broker', name: 'broker' };

const thing = (overrides: Partial<Thing> = {}): Thing => ({
  id: ID,
  status: 'active',
  dateModified: '2026-01-01T12:00:00.123456+02:00',
  ...overrides,
});
const stored = (root: Thing, rev = 3): Aggregate<Thing> => ({
  id: ID,
  root,
  tokenHash: 'h'.repeat(64),
  rev,
  children: [],
  internal: { seen: true },
});

describe('keys', () => {
  it('put an aggregate and its children in one item collection, and index keys in their own partitions', () => {
    expect(keys.root('LOT', ID)).toEqual({ PK: `LOT#${ID}`, SK: ROOT_SK });
    expect(keys.child('LOT', ID, 'DOC#d#1')).toEqual({ PK: keys.aggregate('LOT', ID), SK: 'DOC#d#1' });
    expect(keys.feed('LOTS', false)).toBe('LOTS');
    expect(keys.feed('LOTS', true)).toBe('LOTS#test');
    expect(keys.work('chronograph')).toBe('WORK#chronograph');
    expect(keys.sequence('UA-EA', '2026-01-01')).toEqual({ PK: 'SEQ#UA-EA', SK: '2026-01-01' });
    expect(keys.organization('UA-EDR', '00037256')).toEqual({ PK: 'ORG#UA-EDR#00037256', SK: '#ORG' });
  });
});

describe('root item', () => {
  it('carries keys, revision, hashes, the object, and the feed key by UTC dateModified with its listing view', () => {
    const item = rootItem(THING, stored(thing()));
    expect(item).toMatchObject({
      PK: `THING#${ID}`,
      SK: ROOT_SK,
      entity: 'thing',
      schemaVersion: SCHEMA_VERSION,
      rev: 3,
      tokenHash: 'h'.repeat(64),
      internal: { seen: true },
      data: thing(),
      GSI1PK: 'THINGS',
      // Kyiv 12:00:00.123456+02:00 is 10:00:00.123456 UTC: the sort key is UTC, fixed width, then the id.
      GSI1SK: `2026-01-01T10:00:00.123456Z#${ID}`,
    });
    expect(item[FEED_VIEW]).toMatchObject({ id: ID, dateModified: thing().dateModified, status: 'active' });
    expect(item).not.toHaveProperty('GSI2PK');
  });

  it('keeps drafts off the feed, puts test things on the test feed, and due things on the work index', () => {
    const draft = rootItem(THING, stored(thing({ status: 'draft' })));
    expect(draft).not.toHaveProperty('GSI1PK');
    expect(draft).not.toHaveProperty(FEED_VIEW);
    expect(rootItem(THING, stored(thing({ mode: 'test' }))).GSI1PK).toBe('THINGS#test');
    const waiting = rootItem(THING, stored(thing({ status: 'waiting' })));
    expect(waiting).toMatchObject({ GSI2PK: 'WORK#sweeper', GSI2SK: `2026-01-01T10:00:00.000000Z#${ID}` });
  });

  it('reads back as the aggregate it was built from, children beside it', () => {
    const a = stored(thing());
    const child = { place: { kind: 'DOC', id: 'd', version: 1 }, entity: 'document', data: { id: 'd' } };
    const items = [childItem(THING.kind, ID, child), rootItem(THING, a)];
    expect(items[0]).toEqual({
      PK: `THING#${ID}`,
      SK: 'DOC#d#0001',
      entity: 'document',
      schemaVersion: SCHEMA_VERSION,
      data: { id: 'd' },
      internal: undefined,
    });
    expect(fromItems<Thing>(ID, items)).toEqual({ ...a, children: [child] });
    expect(fromItems(ID, [items[0]])).toBeUndefined();
  });
});

describe('creating an aggregate', () => {
  it('puts the root at revision 1 only where nothing is stored yet, and its children', () => {
    const child = { place: { kind: 'ITEM', id: 'i' }, entity: 'item', data: { id: 'i' } };
    const writes = createWrites(THING, { id: ID, root: thing(), tokenHash: 'h', children: [child] }, BY);
    expect(writes).toHaveLength(2);
    expect(writes[0].Put).toMatchObject({
      TableName: TABLE,
      ConditionExpression: 'attribute_not_exists(PK)',
      Item: { PK: `THING#${ID}`, rev: 1, tokenHash: 'h' },
    });
    expect(writes[1]).toEqual({
      Put: { TableName: TABLE, Item: { ...childItem(THING.kind, ID, child), created: expect.any(Number) } },
    });
  });
});

describe('changing an aggregate', () => {
  it('puts the root at the next revision, conditioned on the revision read', () => {
    const current = stored(thing());
    const [write] = changeWrites(THING, current, { root: thing({ status: 'done' }) }, BY);
    expect(write.Put).toMatchObject({
      TableName: TABLE,
      ConditionExpression: 'rev = :rev',
      ExpressionAttributeValues: { ':rev': 3 },
      Item: { rev: 4, data: { status: 'done' }, tokenHash: current.tokenHash, internal: current.internal },
    });
  });

  it('replaces the token hash and the internal state only when the change says so', () => {
    const [write] = changeWrites(
      THING,
      stored(thing()),
      {
        root: thing(),
        tokenHash: 'n'.repeat(64),
        internal: { reported: 'sold' },
      },
      BY,
    );
    expect(write.Put?.Item).toMatchObject({ tokenHash: 'n'.repeat(64), internal: { reported: 'sold' } });
  });

  it('writes children beside the root: new ones put, removed ones deleted, all in one transaction', () => {
    const put = [{ place: { kind: 'BID', id: 'b' }, entity: 'bid', data: { id: 'b' } }];
    const writes = changeWrites(
      THING,
      stored(thing()),
      { root: thing(), put, remove: [{ kind: 'BID', id: 'old' }] },
      BY,
    );
    expect(writes).toHaveLength(3);
    expect(writes[1]).toEqual({
      Put: {
        TableName: TABLE,
        Item: { ...childItem('THING', ID, { ...put[0], rev: 1 }), created: expect.any(Number) },
        ConditionExpression: 'attribute_not_exists(PK)',
      },
    });
    expect(writes[2]).toEqual({ Delete: { TableName: TABLE, Key: { PK: `THING#${ID}`, SK: 'BID#old' } } });
  });

  it('stamps a child when it is made and keeps its stamp on every later write: children list in that order', () => {
    const bid = (id: string, created?: number) => ({
      place: { kind: 'BID', id },
      entity: 'bid',
      data: { id },
      ...(created !== undefined && { created }),
    });
    const current = { ...stored(thing()), children: [bid('z', 5), bid('a', 7)] };
    const [, changed, made] = changeWrites(THING, current, { root: thing(), put: [bid('z'), bid('m')] }, BY);
    expect(changed.Put?.Item?.created).toBe(5);
    expect(made.Put?.Item?.created).toBeGreaterThan(Date.now() * 1000 - 60e6);
    // Read back: stamped children by stamp, after those stored before stamps, which keep their key order.
    const items = [
      rootItem(THING, current),
      ...[bid('b'), bid('c'), bid('x', 3), bid('y', 1), bid('z', 2)].map((c) => childItem(THING.kind, ID, c)),
    ];
    expect(fromItems<Thing>(ID, items)?.children.map((c) => c.place.id)).toEqual(['b', 'c', 'y', 'z', 'x']);
  });

  it('moves the own revision of a child and holds on the one read (0: a child stored before children had one)', () => {
    const child = (rev?: number) => ({
      place: { kind: 'BID', id: 'b' },
      entity: 'bid',
      data: { id: 'b' },
      ...(rev && { rev }),
    });
    const put = [{ ...child(), data: { id: 'b', value: 2 } }];
    const [, again] = changeWrites(THING, { ...stored(thing()), children: [child(4)] }, { root: thing(), put }, BY);
    expect(again.Put).toMatchObject({
      Item: { rev: 5, data: { value: 2 } },
      ConditionExpression: 'rev = :rev',
      ExpressionAttributeValues: { ':rev': 4 },
    });
    const [, legacy] = changeWrites(THING, { ...stored(thing()), children: [child()] }, { root: thing(), put }, BY);
    expect(legacy.Put).toMatchObject({ Item: { rev: 1 }, ConditionExpression: 'attribute_not_exists(rev)' });
  });

  it('holds a keepStatus write on the status read and an open root instead of the revision', () => {
    const [check] = changeWrites(
      THING,
      stored(thing({ status: 'open' })),
      {
        root: thing({ status: 'open' }),
        keepRevision: true,
        keepStatus: true,
        put: [{ place: { kind: 'BID', id: 'b' }, entity: 'bid', data: {} }],
      },
      BY,
    );
    expect(check.ConditionCheck).toMatchObject({
      ConditionExpression: '#data.#status = :status AND attribute_not_exists(closed)',
      ExpressionAttributeValues: { ':status': 'open' },
    });
  });

  it('closes the root (kept by every later root write) and opens it again', () => {
    const [closing] = changeWrites(THING, stored(thing()), { root: thing(), close: true }, BY);
    expect(closing.Put?.Item).toMatchObject({ closed: true, rev: 4 });
    const closed = { ...stored(thing()), closed: true };
    expect(changeWrites(THING, closed, { root: thing({ status: 'x' }) }, BY)[0].Put?.Item).toMatchObject({
      closed: true,
    });
    expect(changeWrites(THING, closed, { root: thing(), close: false }, BY)[0].Put?.Item).not.toHaveProperty('closed');
    expect(fromItems<Thing>(ID, [rootItem(THING, closed)])?.closed).toBe(true);
  });

  it('only checks the revision when the root is kept (a child written alone)', () => {
    const writes = changeWrites(
      THING,
      stored(thing()),
      {
        root: thing(),
        keepRevision: true,
        put: [{ place: { kind: 'Q', id: 'q' }, entity: 'question', data: {} }],
      },
      BY,
    );
    expect(writes[0]).toEqual({
      ConditionCheck: {
        TableName: TABLE,
        Key: keys.root('THING', ID),
        ConditionExpression: 'rev = :rev',
        ExpressionAttributeValues: { ':rev': 3 },
      },
    });
    expect(writes[1].Put?.Item).toMatchObject({ SK: 'Q#q' });
  });
});

describe('the change log', () => {
  it('writes the first revision with the create, and keeps the head on the root', () => {
    const writes = createWrites(LOGGED, { id: ID, root: thing(), tokenHash: 'h', children: [] }, BY);
    const revision = writes[1].Put!;
    expect(revision.ConditionExpression).toBe('attribute_not_exists(PK)');
    expect(revision.Item).toMatchObject({
      PK: `REV#THING#${ID}`,
      SK: '0000000001',
      entity: 'revision',
      objectKind: 'lot',
      seq: 1,
      status: 'active',
      lane: 'THINGS',
      [FEED_VIEW]: { id: ID, dateModified: thing().dateModified, status: 'active' },
      revision: { date: thing().dateModified, author: BY, previousHash: '' },
    });
    expect(writes[0].Put?.Item).toMatchObject({ history: { seq: 1, hash: revision.Item?.revision.hash } });
    // On no index (the journal reads it by key), and nothing twice: the id is the key's, the date the revision's.
    expect(revision.Item).not.toHaveProperty('GSI1PK');
    expect(revision.Item).not.toHaveProperty('objectId');
    expect(revision.Item).not.toHaveProperty('dateModified');
  });

  it('chains a change after the head read, and writes none when the public view stays', () => {
    const current = { ...stored(thing()), history: { seq: 4, hash: 'f'.repeat(64) } };
    const writes = changeWrites(LOGGED, current, { root: thing({ status: 'done' }) }, BY);
    expect(writes[1].Put?.Item).toMatchObject({
      SK: '0000000005',
      seq: 5,
      revision: { previousHash: 'f'.repeat(64), changes: [{ op: 'replace', path: '/status', value: 'done' }] },
    });
    expect(writes[0].Put?.Item?.history).toEqual({ seq: 5, hash: writes[1].Put?.Item?.revision.hash });
    const internalOnly = changeWrites(LOGGED, current, { root: thing(), internal: { x: 1 } }, BY);
    expect(internalOnly).toHaveLength(1);
    expect(internalOnly[0].Put?.Item?.history).toEqual(current.history);
  });

  it('writes a children-only change that shows in the view as a root change, so that it is ordered', () => {
    const current = { ...stored(thing()), history: { seq: 1, hash: 'f'.repeat(64) } };
    const put = [{ place: { kind: 'Q', id: 'q' }, entity: 'question', data: { id: 'q' } }];
    const writes = changeWrites(LOGGED, current, { root: thing(), keepRevision: true, keepStatus: true, put }, BY);
    expect(writes[0].Put).toMatchObject({ ConditionExpression: 'rev = :rev', Item: { rev: 4 } });
    expect(writes[1].Put?.Item?.revision.changes).toEqual([{ op: 'add', path: '/children/0', value: { id: 'q' } }]);
  });

  it('keeps drafts off the change feed, as off the listing feed', () => {
    const [, revision] = createWrites(
      LOGGED,
      { id: ID, root: thing({ status: 'draft' }), tokenHash: 'h', children: [] },
      BY,
    );
    expect(revision.Put?.Item).not.toHaveProperty('GSI1PK');
  });
});

describe('transactions over several aggregates', () => {
  it('write each change and check, without writing, the aggregates that must stay as read', () => {
    const other = { ...stored(thing(), 7), id: 'b'.repeat(32), root: thing({ id: 'b'.repeat(32) }) };
    const items = transactionItems(
      [{ def: THING, current: stored(thing()), change: { root: thing({ status: 'done' }) }, author: BY }],
      [{ def: THING, current: other }],
    );
    expect(items).toHaveLength(2);
    expect(items[0].Put?.Item).toMatchObject({ rev: 4 });
    expect(items[1]).toEqual({
      ConditionCheck: {
        TableName: TABLE,
        Key: keys.root('THING', 'b'.repeat(32)),
        ConditionExpression: 'rev = :rev',
        ExpressionAttributeValues: { ':rev': 7 },
      },
    });
    expect(transactionItems([])).toEqual([]);
  });
});

describe('other items', () => {
  it('count IDs per prefix and day with one atomic ADD', () => {
    expect(nextSequenceUpdate('UA-EA', '2026-01-01')).toEqual({
      TableName: TABLE,
      Key: { PK: 'SEQ#UA-EA', SK: '2026-01-01' },
      UpdateExpression: 'ADD #n :one SET entity = :entity',
      ExpressionAttributeNames: { '#n': 'next' },
      ExpressionAttributeValues: { ':one': 1, ':entity': 'sequence' },
      ReturnValues: 'UPDATED_NEW',
    });
  });

  it('query due work on the work index up to and including now, keys only', () => {
    const query = dueWorkQuery('chronograph', DUE, 25, { PK: 'x' });
    expect(query).toEqual({
      TableName: TABLE,
      IndexName: 'GSI2',
      KeyConditionExpression: 'GSI2PK = :pk AND GSI2SK <= :due',
      ExpressionAttributeValues: { ':pk': 'WORK#chronograph', ':due': '2026-01-01T10:00:00.000000Z~' },
      ProjectionExpression: 'PK',
      Limit: 25,
      ExclusiveStartKey: { PK: 'x' },
    });
    // An item due at exactly now sorts below the bound.
    expect(`2026-01-01T10:00:00.000000Z#${ID}` <= String(query.ExpressionAttributeValues?.[':due'])).toBe(true);
  });

  it('store an API key only as its hash, never the key, in the item nor in its feed view', () => {
    const item = apiKeyItem('s3cret-key', { name: 'broker', role: 'broker', levels: '1234' }, '2026-01-01T00:00:00Z');
    expect(item).toMatchObject({
      ...keys.apiKey(sha256('s3cret-key')),
      name: 'broker',
      role: 'broker',
      GSI1PK: 'APIKEYS',
      GSI1SK: `broker#${sha256('s3cret-key')}`,
    });
    expect(item[FEED_VIEW]).toEqual({
      name: 'broker',
      role: 'broker',
      levels: '1234',
      created: '2026-01-01T00:00:00Z',
    });
    expect(JSON.stringify(item)).not.toContain('s3cret-key');
  });

  it('key an organization by its identifier', () => {
    const organization = { name: 'ДУС', identifier: { scheme: 'UA-EDR', id: '00037256' } };
    expect(organizationItem(organization)).toEqual({
      PK: 'ORG#UA-EDR#00037256',
      SK: '#ORG',
      entity: 'organization',
      schemaVersion: SCHEMA_VERSION,
      data: organization,
    });
  });
});
