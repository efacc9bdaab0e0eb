import { CreateTableCommand, DynamoDBClient, ResourceInUseException } from '@aws-sdk/client-dynamodb';
import { indexProjection, INDEXES, TABLE_KEYS } from '../../functions/store/table-design.ts';

/**
 * Creates the single table (keys and GSIs from table-design.ts) in DynamoDB Local; existing table kept. `stream`: with
 * the change stream the webhooks read (`npm start`, and the tests of the pipe). Only where it is read: DynamoDB Local
 * keeps every record of every stream, and its writes grow slower as they pile up (a test run's would by half).
 */
export async function createTable(
  endpoint: string,
  tableName: string,
  options: { stream?: boolean } = {},
): Promise<void> {
  const client = new DynamoDBClient({
    endpoint,
    region: 'eu-central-1',
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
  });
  const attributes = [
    TABLE_KEYS.partitionKey,
    TABLE_KEYS.sortKey,
    ...INDEXES.flatMap((i) => [i.partitionKey, i.sortKey]),
  ];
  try {
    await client.send(
      new CreateTableCommand({
        TableName: tableName,
        BillingMode: 'PAY_PER_REQUEST',
        // The change stream the webhooks read (lib/local/change-stream.ts; in AWS the pipe to the delivery queue).
        ...(options.stream && { StreamSpecification: { StreamEnabled: true, StreamViewType: 'NEW_IMAGE' } }),
        AttributeDefinitions: attributes.map((AttributeName) => ({ AttributeName, AttributeType: 'S' })),
        KeySchema: [
          { AttributeName: TABLE_KEYS.partitionKey, KeyType: 'HASH' },
          { AttributeName: TABLE_KEYS.sortKey, KeyType: 'RANGE' },
        ],
        GlobalSecondaryIndexes: INDEXES.map((i) => ({
          IndexName: i.name,
          KeySchema: [
            { AttributeName: i.partitionKey, KeyType: 'HASH' },
            { AttributeName: i.sortKey, KeyType: 'RANGE' },
          ],
          Projection: indexProjection(i),
        })),
      }),
    );
  } catch (error) {
    if (!(error instanceof ResourceInUseException)) throw error;
  } finally {
    client.destroy();
  }
}
