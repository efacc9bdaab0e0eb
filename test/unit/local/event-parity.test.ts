import { describe, expect, it } from 'vitest';
import { eventParity, eventsReport, localHttpEvent, sdkRecord } from '../../support/aws/events.ts';
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

describe("the local gateway's encodings are API Gateway's", () => {
  const { event } = localHttpEvent();
  it('header names lower-cased, cookies split out of the headers', () => {
    expect(Object.keys(event.headers).filter((name) => name !== name.toLowerCase())).toEqual([]);
    expect(event.headers.cookie).toBeUndefined();
    expect(event.cookies).toEqual(['cookie1=value1', 'cookie2=value2']);
  });
  it('a repeated query parameter joined with commas, the raw query string kept', () => {
    expect(event.queryStringParameters).toEqual({ opt_fields: 'id,title', limit: '5' });
    expect(event.rawQueryString).toBe('opt_fields=id&opt_fields=title&limit=5');
  });
  it('a binary body in base64', () => {
    expect(event.isBase64Encoded).toBe(true);
    expect([...Buffer.from(event.body!, 'base64')]).toEqual([1, 2, 3, 4, 5]);
  });
});

describe('the shape walk', () => {
  it("finds the SDK's own stream record (what the change stream used to send) unlike the pipe's", () => {
    const diffs = shapeDiff(aws.pipeStreamRecord, JSON.parse(JSON.stringify(sdkRecord)), {
      images: ['dynamodb.Keys', 'dynamodb.NewImage'],
    });
    expect(diffs).toEqual([
      'dynamodb.ApproximateCreationDateTime is string, AWS sends number',
      'dynamodb.NewImage.digest.B is not base64 text',
      'missing eventSourceARN',
    ]);
  });

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
