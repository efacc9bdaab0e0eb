import { createServer, type Server } from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { S3Client } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { attachRoomServer } from '../../../lib/local/room-server.ts';
import { roomPorts } from '../../../functions/room/ports.ts';
import { type AwsCall, installCallObserver } from '../../../functions/store/aws-calls.ts';
import { folderStore } from '../../../functions/store/files/folder-store.ts';
import { s3Store } from '../../../functions/store/files/s3-store.ts';
import { resetConfig } from '../../../functions/platform/config.ts';
import { iamRequests } from '../../support/aws/calls.ts';

/**
 * The calls only AWS makes (S3, the room's management API, Step Functions) are recorded during the suite by the local
 * stand-ins of their ports (the folder file store, the local room server), as the calls the AWS adapters would send.
 * Here each AWS adapter makes them, over a local HTTP endpoint that answers 200 (S3 presigning needs none): what it
 * sends must be, as IAM sees it, what its stand-in told the recordings (test/aws/iam.test.ts checks those).
 */
function observing() {
  const calls: AwsCall[] = [];
  const previous = installCallObserver((call) => calls.push(call));
  return { calls, done: () => installCallObserver(previous) };
}
const asIam = (calls: AwsCall[]) => calls.flatMap(iamRequests);

let endpoint: Server;
let url = '';
beforeAll(async () => {
  endpoint = createServer((req, res) => {
    req.resume();
    req.on('end', () => res.writeHead(200, { 'content-type': 'application/json' }).end('{}'));
  });
  await new Promise<void>((resolve) => endpoint.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(endpoint.address() as { port: number }).port}`;
});
afterAll(() => new Promise<void>((resolve) => endpoint.close(() => resolve())));

describe('the file store: the S3 adapter sends what the folder store records', () => {
  const md5 = '9e107d9d372bb6826bd81d3542a419d6';
  const operations = async (store: ReturnType<typeof folderStore>) => {
    await store.put('k1', new Uint8Array([1, 2, 3]), md5);
    await store.exists('k1');
    await store.downloadUrl('k1', 60);
    await store.directUpload('k2', md5, 300);
    await store.markAttached(['k1', 'k2']);
  };

  it('puts, heads, presigns a download and an upload, and tags: the same IAM requests', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'agora-adapter-calls-'));
    try {
      const local = observing();
      await operations(folderStore(dir)).finally(local.done);
      const client = new S3Client({
        region: 'eu-central-1',
        endpoint: url,
        forcePathStyle: true,
        credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
      });
      const aws = observing();
      await operations(s3Store('agora-files', client)).finally(aws.done);
      expect(asIam(aws.calls)).toEqual(asIam(local.calls));
      expect(asIam(aws.calls).map((r) => r.action)).toEqual([
        's3:PutObject',
        's3:PutObjectTagging',
        's3:GetObject',
        's3:GetObject',
        's3:PutObject',
        's3:PutObjectTagging',
        's3:PutObjectTagging',
        's3:PutObjectTagging',
      ]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("the room's ports: the AWS ports send what the local room server records", () => {
  const order = { auctionId: 'a1', version: 3, nextAt: new Date(Date.now() + 3_600_000).toISOString() };
  const operations = async () => {
    await roomPorts().send('c1', new TextEncoder().encode('{}'));
    await roomPorts().close('c1', 'bye');
    await roomPorts().arm(order);
  };

  it('PostToConnection, DeleteConnection and StartExecution: the same IAM requests', async () => {
    const server = createServer();
    const room = await attachRoomServer(server, () => 'localhost');
    const local = observing();
    await operations().finally(() => {
      local.done();
      room.close(); // its timer with it, and the local ports: roomPorts() is AWS's again
    });
    const saved = { ...process.env };
    Object.assign(process.env, {
      ROOM_CALLBACK_URL: `${url}/live`,
      ROOM_TIMERS_ARN: 'arn:aws:states:eu-central-1:123456789012:stateMachine:RoomTimers',
      AWS_ENDPOINT_URL_SFN: url,
      AWS_REGION: 'eu-central-1',
    });
    resetConfig();
    const aws = observing();
    try {
      await operations();
    } finally {
      aws.done();
      process.env = saved;
      resetConfig();
    }
    expect(asIam(aws.calls)).toEqual(asIam(local.calls));
    expect(asIam(aws.calls).map((r) => r.action)).toEqual([
      'execute-api:ManageConnections',
      'execute-api:ManageConnections',
      'states:StartExecution',
    ]);
  });
});
