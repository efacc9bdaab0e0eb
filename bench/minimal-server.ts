/**
 * The floor of an HTTP read on this machine: a bare `node:http` server whose every answer is one DynamoDB request
 * through the same SDK, cached as the service's reads are (`cacheMiddleware`), and the JSON of what it read. No gateway,
 * no authorizer, no kit, no log line. `GET /query/<PK>` sends a consistent Query of the partition (what a GET of one
 * object costs DynamoDB: its aggregate); `GET /get/<PK>` a GetItem of its root. bench/run.ts starts it as a child
 * process (`MINIMAL_PORT`, `DYNAMODB_ENDPOINT`, `TABLE_NAME`) beside the service, so the API's rates can be set beside
 * what any HTTP service over the same DynamoDB Local and cores reaches.
 */
import { createServer } from 'node:http';
import { DynamoDBClient, GetItemCommand, QueryCommand } from '@aws-sdk/client-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';

const { MINIMAL_PORT, DYNAMODB_ENDPOINT, TABLE_NAME: TableName } = process.env;
const client = new DynamoDBClient({
  endpoint: DYNAMODB_ENDPOINT,
  region: 'eu-central-1',
  credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
  cacheMiddleware: true,
});

const read = async (how: string, PK: string) =>
  how === 'get'
    ? [(await client.send(new GetItemCommand({ TableName, Key: { PK: { S: PK }, SK: { S: '#ROOT' } } }))).Item]
    : (
        await client.send(
          new QueryCommand({
            TableName,
            KeyConditionExpression: 'PK = :pk',
            ExpressionAttributeValues: { ':pk': { S: PK } },
            ConsistentRead: true,
          }),
        )
      ).Items;

createServer(async (req, res) => {
  const [, how, PK] = (req.url ?? '').split('/');
  try {
    const items = (await read(how, decodeURIComponent(PK ?? ''))) ?? [];
    const data = items.flatMap((item) => (item ? [unmarshall(item).data] : []));
    res.writeHead(data.length ? 200 : 404, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ data: data[0] ?? null }));
  } catch (error) {
    // Counted as a non-2xx by the bench, never a crash of the run.
    res.writeHead(503, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ error: (error as Error).name }));
  }
}).listen(Number(MINIMAL_PORT), '127.0.0.1', () => console.log('serving'));
