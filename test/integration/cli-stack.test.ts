import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedCalendar } from '../../functions/domain/calendar/calendar-changes.ts';
import { createTable } from '../../lib/local/table.ts';
import { aBasicAsset } from '../support/assets.ts';
import { client } from '../support/http.ts';
import { useService } from '../support/service.ts';

/**
 * `--stack <data stack>` of the table CLIs, run as docs/operations.md gives them ("The first keys", "The working-day
 * calendar", the migrations) with an operator's AWS settings and nothing local: the region, credentials, no
 * TABLE_NAME or DYNAMODB_ENDPOINT. CloudFormation is a stand-in on a local port answering DescribeStacks as AWS does
 * (the SDK's awsQuery protocol: a signed form POST, XML back), DynamoDB the run's DynamoDB Local; the SDK reaches
 * each through its own per-service endpoint variable (AWS_ENDPOINT_URL_CLOUDFORMATION, AWS_ENDPOINT_URL_DYNAMODB), so
 * the CLIs take their deployed-table path unchanged. The data stack's table is this file's service's; the folder the
 * CLIs run in has an `npm start` of its own, with another table, which `--stack` must leave alone.
 */
const ROOT = resolve(import.meta.dirname, '../..');
const TSX = join(ROOT, 'node_modules/.bin/tsx');
const REGION = 'eu-central-1';
const DATA = 'Agora-test-Data';
const API = 'Agora-test-Api';
const service = useService();
const api = client(() => service.url);

/** What the stand-in was asked: the query's parameters and the signature's scope. */
interface Asked {
  action: string | null;
  stack: string | null;
  scope: string | undefined;
}

/**
 * The stacks' outputs as CloudFormation lists them (the keys are the CDK app's: test/infra/operations-guide.test.ts
 * checks the data stack has `TableName`); any other name is AWS's 400 for a stack that does not exist.
 */
function cloudFormation(outputs: Record<string, Record<string, string>>) {
  const asked: Asked[] = [];
  const xml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
  const ns = 'http://cloudformation.amazonaws.com/doc/2010-05-15/';
  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => (body += chunk));
    req.on('end', () => {
      const query = new URLSearchParams(body);
      const stack = query.get('StackName');
      asked.push({
        action: query.get('Action'),
        stack,
        scope: /Credential=[^/]+\/\d{8}\/([^,]+),/.exec(req.headers.authorization ?? '')?.[1],
      });
      const requestId = randomBytes(16).toString('hex');
      const found = stack !== null ? outputs[stack] : undefined;
      if (query.get('Action') !== 'DescribeStacks' || !found) {
        const [code, message] =
          query.get('Action') !== 'DescribeStacks'
            ? ['InvalidAction', `Could not find operation ${query.get('Action')} for version 2010-05-15`]
            : ['ValidationError', `Stack with id ${stack} does not exist`];
        res.writeHead(400, { 'content-type': 'text/xml' });
        res.end(
          `<ErrorResponse xmlns="${ns}"><Error><Type>Sender</Type><Code>${code}</Code><Message>${xml(message)}</Message></Error><RequestId>${requestId}</RequestId></ErrorResponse>`,
        );
        return;
      }
      const members = Object.entries(found)
        .map(([k, v]) => `<member><OutputKey>${k}</OutputKey><OutputValue>${xml(v)}</OutputValue></member>`)
        .join('');
      res.writeHead(200, { 'content-type': 'text/xml' });
      res.end(
        `<DescribeStacksResponse xmlns="${ns}"><DescribeStacksResult><Stacks><member>` +
          `<StackName>${xml(stack!)}</StackName>` +
          `<StackId>arn:aws:cloudformation:${REGION}:123456789012:stack/${xml(stack!)}/${requestId}</StackId>` +
          '<CreationTime>2026-01-05T09:00:00.000Z</CreationTime><StackStatus>UPDATE_COMPLETE</StackStatus>' +
          `<Outputs>${members}</Outputs></member></Stacks></DescribeStacksResult>` +
          `<ResponseMetadata><RequestId>${requestId}</RequestId></ResponseMetadata></DescribeStacksResponse>`,
      );
    });
  });
  return { server, asked };
}

let stand: ReturnType<typeof cloudFormation>;
/** The folder's own `npm start`: its table, which no `--stack` run may read or change. */
const LOCAL_TABLE = `t_local_${randomBytes(6).toString('hex')}`;
let cwd = '';
let endpoint = '';

beforeAll(async () => {
  stand = cloudFormation({
    [DATA]: { TableName: process.env.TABLE_NAME!, AlarmTopicArn: `arn:aws:sns:${REGION}:123456789012:agora-alarms` },
    [API]: { ApiUrl: `https://abc123.execute-api.${REGION}.amazonaws.com/` },
  });
  await new Promise<void>((up) => stand.server.listen(0, '127.0.0.1', up));
  endpoint = `http://127.0.0.1:${(stand.server.address() as AddressInfo).port}`;
  await createTable(process.env.DYNAMODB_ENDPOINT!, LOCAL_TABLE);
  // What `npm start` writes where the CLIs run (bin/local-service.ts), naming the live pid: the default table.
  cwd = mkdtempSync(join(tmpdir(), 'agora-stack-'));
  mkdirSync(join(cwd, '.agora'));
  const local = { url: service.url, endpoint: process.env.DYNAMODB_ENDPOINT, table: LOCAL_TABLE, pid: process.pid };
  writeFileSync(join(cwd, '.agora/local.json'), JSON.stringify(local));
});
afterAll(async () => {
  await new Promise((down) => stand.server.close(down));
});

interface Run {
  code: number;
  out: string;
  err: string;
}
/** `npm run <cli> -- <args>` with an operator's AWS settings and none of this worker's (no AWS_*, no table). */
function cli(name: 'keys' | 'calendar' | 'organizations' | 'migrate', ...args: string[]): Promise<Run> {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env))
    if (!k.startsWith('AWS_') && k !== 'TABLE_NAME' && k !== 'DYNAMODB_ENDPOINT') env[k] = v;
  Object.assign(env, {
    AWS_REGION: REGION,
    AWS_ACCESS_KEY_ID: 'AKIAOPERATOREXAMPLE',
    AWS_SECRET_ACCESS_KEY: 'operator-secret',
    // No profile of the machine's the tests run on is read.
    AWS_CONFIG_FILE: join(cwd, 'no-aws-config'),
    AWS_SHARED_CREDENTIALS_FILE: join(cwd, 'no-aws-credentials'),
    AWS_ENDPOINT_URL_CLOUDFORMATION: endpoint,
    AWS_ENDPOINT_URL_DYNAMODB: process.env.DYNAMODB_ENDPOINT,
    AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
  });
  return new Promise((done) => {
    execFile(TSX, [join(ROOT, `bin/${name}.ts`), ...args], { cwd, env, timeout: 60_000 }, (error, out, err) =>
      done({ code: error ? Number((error as { code?: number }).code ?? 1) : 0, out, err }),
    );
  });
}

describe('--stack <data stack>', () => {
  it("keys: adds and lists in the stack's table; the new key works against the service that table serves", async () => {
    const table = process.env.TABLE_NAME!;
    const added = await cli('keys', 'add', 'stack-broker', 'broker', '1234', '--stack', DATA);
    expect(added.code, added.err).toBe(0);
    expect(added.out).toMatch(
      new RegExp(`^key for stack-broker \\(broker, levels 1234\\) in table ${table}: [0-9a-f]{48}$`, 'm'),
    );
    const key = /: ([0-9a-f]{48})\n/.exec(added.out)![1]!;

    const [listed, local] = await Promise.all([cli('keys', 'list', '--stack', DATA), cli('keys', 'list')]);
    expect(listed.code, listed.err).toBe(0);
    expect(listed.out).toMatch(/\tstack-broker\tbroker\t1234\t/);
    expect(listed.out).toMatch(/\tbroker\tbroker\t1234\t/); // the dev key the service's table was seeded with
    // Without --stack: the folder's `npm start`, which the add did not touch.
    expect(local).toMatchObject({
      code: 0,
      out: `no keys in local table ${LOCAL_TABLE} at ${process.env.DYNAMODB_ENDPOINT}\n`,
    });

    const created = await api.post('/api/0.1/assets', aBasicAsset(), { as: key });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body.data.owner).toBe('stack-broker');
    expect(stand.asked).toContainEqual({
      action: 'DescribeStacks',
      stack: DATA,
      scope: `${REGION}/cloudformation/aws4_request`,
    });
  }, 120_000);

  it("calendar: extends and shows the stack's table's calendar, as the service answers it; organizations and migrate work on that table", async () => {
    const table = process.env.TABLE_NAME!;
    const to = seedCalendar().coverage.to.replace(/^\d{4}/, (y) => String(Number(y) + 1));
    const extended = await cli('calendar', 'extend', to, '--stack', DATA, '--source', 'stack test');
    expect(extended.code, extended.err).toBe(0);
    expect(extended.out).toBe(`changed the calendar of table ${table}: coverage 2024-01-01..${to}\n`);

    const [shown, local, organization, migrated] = await Promise.all([
      cli('calendar', 'show', '--stack', DATA),
      cli('calendar', 'show'),
      cli('organizations', 'show', 'UA-EDR', '00037256', '--stack', DATA),
      cli('migrate', '--dry-run', '--stack', DATA),
    ]);
    expect(shown.code, shown.err).toBe(0);
    expect(JSON.parse(shown.out)).toMatchObject({
      coverage: { to },
      source: 'stack test',
      dateModified: expect.any(String),
    });
    expect((await api.get('/api/calendar', { as: undefined })).body.data.coverage.to).toBe(to);
    expect(local.code, local.err).toBe(0);
    expect(JSON.parse(local.out).coverage.to).toBe(seedCalendar().coverage.to);

    // The dev organizations are in the service's table, not in the folder's `npm start`'s (created empty).
    expect(organization.code, organization.err).toBe(0);
    expect(JSON.parse(organization.out)).toMatchObject({ identifier: { scheme: 'UA-EDR', id: '00037256' } });
    expect(migrated.code, migrated.err).toBe(0);
    expect(migrated.out).toMatch(new RegExp(`\\bin table ${table}\\b|^table ${table} is at model`));
  }, 120_000);

  it('a stack without a TableName output, and one that does not exist: one line each, exit 1', async () => {
    const runs = await Promise.all([
      cli('keys', 'list', '--stack', API),
      cli('calendar', 'show', '--stack', API),
      cli('organizations', 'show', 'UA-EDR', '00037256', '--stack', API),
      cli('migrate', '--stack', API),
      cli('keys', 'list', '--stack', 'Agora-nope-Data'),
    ]);
    const noOutput = `stack ${API} has no TableName output: name the data stack (Agora-<stage>-Data)\n`;
    for (const run of runs.slice(0, 4)) expect(run).toEqual({ code: 1, out: '', err: noOutput });
    expect(runs[4]).toEqual({
      code: 1,
      out: '',
      err: `no stack Agora-nope-Data in this account in region ${REGION}\n`,
    });
  }, 120_000);
});
