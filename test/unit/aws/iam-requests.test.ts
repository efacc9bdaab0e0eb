import { describe, expect, it } from 'vitest';
import { iamRequests } from '../../support/aws/calls.ts';

// How IAM sees an SDK call (test/support/aws/calls.ts): what the recordings of the suite are made of.
describe('iamRequests', () => {
  it('authorizes a transaction item by item, each with its own partition key', () => {
    const requests = iamRequests({
      service: 'DynamoDB',
      command: 'TransactWriteItemsCommand',
      input: {
        TransactItems: [
          { Put: { TableName: 't', Item: { PK: { S: 'LOT#abc' }, SK: { S: '#ROOT' } } } },
          { Update: { TableName: 't', Key: { PK: 'SEQ#lots', SK: '2026-11-28' } } },
          { ConditionCheck: { TableName: 't', Key: { PK: 'ASSET#x', SK: '#ROOT' } } },
        ],
      },
    });
    expect(requests).toEqual([
      { action: 'dynamodb:PutItem', resource: { kind: 'table' }, context: { 'dynamodb:LeadingKeys': ['LOT#<id>'] } },
      { action: 'dynamodb:UpdateItem', resource: { kind: 'table' }, context: { 'dynamodb:LeadingKeys': ['SEQ#<id>'] } },
      {
        action: 'dynamodb:ConditionCheckItem',
        resource: { kind: 'table' },
        context: { 'dynamodb:LeadingKeys': ['ASSET#<id>'] },
      },
    ]);
  });

  it("names a Query's index and the partition key its condition gives, through attribute names too", () => {
    expect(
      iamRequests({
        service: 'DynamoDB',
        command: 'QueryCommand',
        input: {
          IndexName: 'GSI2',
          KeyConditionExpression: '#pk = :due AND GSI2SK <= :now',
          ExpressionAttributeNames: { '#pk': 'GSI2PK' },
          ExpressionAttributeValues: { ':due': { S: 'WORK#convoy' }, ':now': { S: '2026' } },
        },
      }),
    ).toEqual([
      {
        action: 'dynamodb:Query',
        resource: { kind: 'table', index: 'GSI2' },
        context: { 'dynamodb:LeadingKeys': ['WORK#<id>'] },
      },
    ]);
  });

  it('asks for the tagging permission of a PutObject with tags, and GetObject for a HeadObject', () => {
    const object = { kind: 'object', key: 'files/<id>' };
    expect(
      iamRequests({ service: 'S3', command: 'PutObjectCommand', input: { Key: 'files/k1', Tagging: 'a=b' } }),
    ).toEqual([
      { action: 's3:PutObject', resource: object },
      { action: 's3:PutObjectTagging', resource: object },
    ]);
    expect(iamRequests({ service: 'S3', command: 'HeadObjectCommand', input: { Key: 'files/k1' } })).toEqual([
      { action: 's3:GetObject', resource: object },
    ]);
  });

  it('makes a message to a connection execute-api:ManageConnections on its method', () => {
    expect(iamRequests({ service: 'ApiGatewayManagementApi', command: 'DeleteConnectionCommand', input: {} })).toEqual([
      { action: 'execute-api:ManageConnections', resource: { kind: 'connection', method: 'DELETE' } },
    ]);
  });
});
