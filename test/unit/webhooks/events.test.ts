import { marshall } from '@aws-sdk/util-dynamodb';
import { describe, expect, it } from 'vitest';
import { changeOfRecord } from '../../../functions/bots/webhook-changes.ts';
import { changeOfItem, eventBody } from '../../../functions/domain/webhooks/events.ts';
import { keys } from '../../../functions/store/table-design.ts';

const ID = 'a'.repeat(32);
const DATE = '2026-01-01T12:00:00.000001+02:00';
const revision = (seq: number) => ({
  ...keys.revision('AUCTION', ID, seq),
  entity: 'revision',
  objectKind: 'auction',
  objectType: 'dgfInsider',
  objectId: ID,
  seq,
  dateModified: DATE,
  status: 'active.auction',
  revision: { date: DATE, changes: [] },
});
/** The auction's root before the change log (no `history`): `rev` counts its writes, no change's number. */
const root = { PK: `AUCTION#${ID}`, SK: '#ROOT', entity: 'auction', rev: 5, data: { id: ID, dateModified: DATE } };
/** Its root with the log's head: the stream record of its change number 3. */
const changedRoot = { ...root, history: { seq: 3, hash: 'ab' }, data: { ...root.data, status: 'active.auction' } };
const record = (item: object) => JSON.stringify({ eventName: 'MODIFY', dynamodb: { NewImage: marshall(item) } });

describe('the changes webhooks send', () => {
  it('are the revisions of the change log, with their own seq: created is seq 1', () => {
    expect(changeOfItem(revision(1))).toEqual({
      kind: 'auction',
      id: ID,
      seq: 1,
      dateModified: DATE,
      status: 'active.auction',
    });
    expect(eventBody(changeOfItem(revision(1))!, 'auctions-landlease:1').type).toBe('auction.created');
    expect(eventBody(changeOfRecord(record(changedRoot))!, 'auctions-landlease:3')).toMatchObject({
      type: 'auction.updated',
      data: { id: ID, seq: 3, status: 'active.auction', cursor: 'auctions-landlease:3' },
    });
  });

  it('take the id from the key and the date from the revision, as the log writes them since issue 46', () => {
    const { objectId: _, dateModified: __, ...written } = revision(2);
    expect(changeOfItem(written)).toEqual(changeOfItem(revision(2)));
    expect(changeOfItem(written)).toMatchObject({ id: ID, dateModified: DATE, seq: 2 });
  });

  it('are nothing else: a root with no change log, a revision on the stream (its root carries it), a child, a removal', () => {
    expect(changeOfItem(root)).toBeUndefined();
    expect(changeOfRecord(record(root))).toBeUndefined();
    expect(changeOfRecord(record(revision(3)))).toBeUndefined();
    expect(changeOfItem({ PK: `AUCTION#${ID}`, SK: 'BID#b', entity: 'bid', data: { id: 'b' } })).toBeUndefined();
    expect(changeOfItem({ ...revision(2), objectKind: 'transfer' })).toBeUndefined();
    expect(changeOfRecord(JSON.stringify({ eventName: 'REMOVE', dynamodb: { Keys: {} } }))).toBeUndefined();
  });
});
