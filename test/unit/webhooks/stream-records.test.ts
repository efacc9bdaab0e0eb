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
const revision = (image: Record<string, unknown>) => ({
  ...MIGRATION_STATE,
  dynamodb: {
    ...MIGRATION_STATE.dynamodb,
    NewImage: {
      PK: { S: 'LOT#0f' },
      SK: { S: 'REV#000000000001' },
      entity: { S: 'revision' },
      objectKind: { S: 'lot' },
      objectId: { S: '0f' },
      seq: { N: '1' },
      dateModified: { S: '2026-11-28T10:43:00.000000+02:00' },
      status: { S: 'draft' },
      ...image,
    },
  },
});

describe('the stream records the webhook consumer reads', () => {
  it('skips what is no change: a migration state as DynamoDB Local writes it, any other item, a removal, a bad body', () => {
    expect(changeOfRecord(JSON.stringify(MIGRATION_STATE))).toBeUndefined();
    expect(changeOfRecord(JSON.stringify({ ...MIGRATION_STATE, dynamodb: { Keys: {} }, eventName: 'REMOVE' }))).toBe(
      undefined,
    );
    expect(changeOfRecord('not json')).toBeUndefined();
    expect(changeOfRecord('null')).toBeUndefined();
    // A revision whose image cannot be read is skipped too, never thrown.
    expect(changeOfRecord(JSON.stringify(revision({ extra: {} })))).toBeUndefined();
  });

  it('reads a revision', () => {
    expect(changeOfRecord(JSON.stringify(revision({})))).toEqual({
      kind: 'lot',
      id: '0f',
      seq: 1,
      dateModified: '2026-11-28T10:43:00.000000+02:00',
      status: 'draft',
    });
  });
});
