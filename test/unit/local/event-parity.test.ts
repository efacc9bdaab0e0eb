import { describe, expect, it } from 'vitest';
import { eventParity, eventsReport } from '../../support/aws/events.ts';
import * as aws from '../../support/aws/fixtures.ts';
import { shapeDiff } from '../../support/aws/shape.ts';

/**
 * Each local stand-in builds the events of AWS's shape (test/support/aws/): a field removed from one, or one of
 * another type or encoding, fails here with the stand-in's and the field's name.
 */
describe('the local stand-ins build the events AWS sends', () => {
  for (const { fn, event, standIn, diffs } of eventParity())
    it(`${event} (consumed by ${fn})`, () => {
      expect(diffs.map((d) => `${standIn}: ${d}`)).toEqual([]);
    });

  it('the report has one row per event kind, all passing', () => {
    const rows = eventsReport();
    expect(rows.length).toBe(eventParity().length);
    expect(rows.filter((r) => !r.ok)).toEqual([]);
  });
});

describe('the shape walk', () => {
  it('names a missing field, a changed type, an extra field and a bad DynamoDB JSON value', () => {
    const { rawQueryString: _, ...event } = aws.httpApiEvent;
    expect(shapeDiff(aws.httpApiEvent, event)).toEqual(['missing rawQueryString']);
    expect(shapeDiff(aws.httpApiEvent, { ...aws.httpApiEvent, isBase64Encoded: 'true' })).toEqual([
      'isBase64Encoded is string, AWS sends boolean',
    ]);
    expect(shapeDiff(aws.httpApiEvent, { ...aws.httpApiEvent, multiValueHeaders: {} })).toEqual([
      'extra multiValueHeaders (AWS does not send it)',
    ]);
    const record = aws.pipeStreamRecord;
    const images = { images: ['dynamodb.NewImage'] };
    const bytes = { ...record, dynamodb: { ...record.dynamodb, NewImage: { digest: { B: { 0: 1 } } } } };
    expect(shapeDiff(record, bytes, images)).toEqual(['dynamodb.NewImage.digest.B is not base64 text']);
    const time = { ...record, dynamodb: { ...record.dynamodb, ApproximateCreationDateTime: '2026-11-28T09:00:00Z' } };
    expect(shapeDiff(record, time, images)).toEqual([
      'dynamodb.ApproximateCreationDateTime is string, AWS sends number',
    ]);
  });
});
