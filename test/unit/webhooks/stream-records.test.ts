import { describe, expect, it } from 'vitest';
import { changeOfRecord } from '../../../functions/bots/webhook-changes.ts';

/** The record DynamoDB Local's stream held after `npm run migrate` wrote its state: `cursors`, an empty map, untyped. */
const MIGRATION_STATE = {
  eventID: 'ec95bbd6-4312-4fa9-ae41-7b82f6380394',
  eventName: 'INSERT',
  eventVersion: '1.1',
  eventSource: 'aws:dynamodb',
  awsRegion: 'ddblocal',
  dynamodb: {
    ApproximateCreationDateTime: '2026-11-28T08:43:00.000Z',
    Keys: { SK: { S: '#STATE' }, PK: { S: 'MIGRATION#0005' } },
    NewImage: { cursors: {}, SK: { S: '#STATE' }, PK: { S: 'MIGRATION#0005' }, segments: { N: '4' } },
    SequenceNumber: '000000000000000000016',
    SizeBytes: 68,
    StreamViewType: 'NEW_IMAGE',
  },
};
const root = (image: Record<string, unknown>) => ({
  ...MIGRATION_STATE,
  dynamodb: {
    ...MIGRATION_STATE.dynamodb,
    Keys: { PK: { S: 'LOT#0f' }, SK: { S: '#ROOT' } },
    NewImage: {
      PK: { S: 'LOT#0f' },
      SK: { S: '#ROOT' },
      entity: { S: 'lot' },
      history: { M: { seq: { N: '1' }, hash: { S: 'ab' } } },
      data: {
        M: {
          id: { S: '0f' },
          owner: { S: 'broker' },
          dateModified: { S: '2026-11-28T10:43:00.000000+02:00' },
          status: { S: 'draft' },
        },
      },
      ...image,
    },
  },
});

describe('the stream records the journal takes', () => {
  it('skips what is no change: a migration state as DynamoDB Local writes it, any other item, a removal, a bad body', () => {
    expect(changeOfRecord(JSON.stringify(MIGRATION_STATE))).toBeUndefined();
    expect(changeOfRecord(JSON.stringify({ ...MIGRATION_STATE, dynamodb: { Keys: {} }, eventName: 'REMOVE' }))).toBe(
      undefined,
    );
    expect(changeOfRecord('not json')).toBeUndefined();
    expect(changeOfRecord('null')).toBeUndefined();
    // A root whose image cannot be read is skipped too, never thrown; a root with no change log is no change.
    expect(changeOfRecord(JSON.stringify(root({ extra: {} })))).toBeUndefined();
    expect(changeOfRecord(JSON.stringify(root({ history: { NULL: true } })))).toBeUndefined();
  });

  it("reads a root's change: a draft's, its owner's alone; a listed one's lane and view", () => {
    expect(changeOfRecord(JSON.stringify(root({})))).toEqual({
      kind: 'lot',
      id: '0f',
      seq: 1,
      dateModified: '2026-11-28T10:43:00.000000+02:00',
      status: 'draft',
      hash: 'ab',
      draftOf: 'broker',
    });
    const listed = root({ GSI1PK: { S: 'lots#test' }, feed: { M: { id: { S: '0f' } } } });
    listed.dynamodb.NewImage.data = {
      M: {
        id: { S: '0f' },
        owner: { S: 'broker' },
        dateModified: { S: '2026-11-28T10:44:00.000000+02:00' },
        status: { S: 'pending' },
      },
    };
    expect(changeOfRecord(JSON.stringify(listed))).toEqual({
      kind: 'lot',
      id: '0f',
      seq: 1,
      dateModified: '2026-11-28T10:44:00.000000+02:00',
      status: 'pending',
      hash: 'ab',
      lane: 'lots#test',
      view: { id: '0f' },
    });
  });
});
