import { beforeAll, describe, expect, it } from 'vitest';
import type { RecordedCall } from '../support/aws/calls.ts';
import { IamModel, synthesizedTemplates } from '../support/aws/iam-check.ts';

/**
 * The IAM check itself (test/aws/iam.test.ts runs it over the suite's recordings): calls a role grants are allowed,
 * others denied, conditions included, each evaluated on the templates `cdk synth` writes; so a missing grant cannot
 * pass unseen.
 */
let model: IamModel;
beforeAll(() => {
  model = new IamModel(synthesizedTemplates());
});
const table = { kind: 'table' } as const;
const verdicts = async (calls: RecordedCall[]) =>
  (await model.check(calls)).reports
    .filter((r) => r.verdicts.length)
    .flatMap((r) => r.verdicts.map((v) => `${r.caller} ${v.call.action} ${v.allowed ? 'allowed' : 'denied'}`));

describe('the IAM check', () => {
  it('holds the authorizer to its token buckets: UpdateItem of RATE# items only, no PutItem', async () => {
    const rate = { 'dynamodb:LeadingKeys': ['RATE#<id>'] };
    const lot = { 'dynamodb:LeadingKeys': ['LOT#<id>'] };
    expect(
      await verdicts([
        { caller: 'authorizer', action: 'dynamodb:UpdateItem', resource: table, context: rate },
        { caller: 'authorizer', action: 'dynamodb:UpdateItem', resource: table, context: lot },
        { caller: 'authorizer', action: 'dynamodb:PutItem', resource: table, context: rate },
      ]),
    ).toEqual([
      'authorizer dynamodb:UpdateItem allowed',
      'authorizer dynamodb:UpdateItem denied',
      'authorizer dynamodb:PutItem denied',
    ]);
  });

  it('finds a route by its route key, and the room and bots by their ids: each with its own grants', async () => {
    const connection = { kind: 'connection', method: 'POST' } as const;
    expect(
      (
        await verdicts([
          { caller: 'route:GET /api/0.1/lots', action: 'dynamodb:Query', resource: { kind: 'table', index: 'GSI1' } },
          { caller: 'route:GET /api/0.1/lots', action: 'dynamodb:PutItem', resource: table },
          { caller: 'room:Ping', action: 'execute-api:ManageConnections', resource: connection },
          { caller: 'room:Connect', action: 'execute-api:ManageConnections', resource: connection },
          { caller: 'room:Bid', action: 'states:StartExecution', resource: { kind: 'stateMachine' } },
          { caller: 'bot:convoy', action: 'dynamodb:Scan', resource: table },
          { caller: 'migrate', action: 'dynamodb:Scan', resource: table },
        ])
      ).sort(),
    ).toEqual(
      [
        'route:GET /api/0.1/lots dynamodb:Query allowed',
        'route:GET /api/0.1/lots dynamodb:PutItem denied',
        'room:Ping execute-api:ManageConnections allowed',
        'room:Connect execute-api:ManageConnections denied',
        'room:Bid states:StartExecution allowed',
        'bot:convoy dynamodb:Scan denied',
        'migrate dynamodb:Scan allowed',
      ].sort(),
    );
  });

  it("lists a role's grants no call used, with the reason the stack gives for keeping each", async () => {
    const { reports } = await model.check([
      {
        caller: 'authorizer',
        action: 'dynamodb:GetItem',
        resource: table,
        context: { 'dynamodb:LeadingKeys': ['APIKEY#<id>'] },
      },
    ]);
    const authorizer = reports.find((r) => r.caller === 'authorizer')!;
    const unused = authorizer.unused.map((g) => `${g.action} ${g.resource.includes(':table/') ? 'table' : g.resource}`);
    const why = (action: string) => authorizer.unused.find((g) => g.action === action)?.justified;
    expect(unused).toContain('dynamodb:UpdateItem table'); // its own statement, no call of this list used it
    expect(why('dynamodb:UpdateItem')).toBeUndefined();
    expect(why('xray:PutTraceSegments')).toContain('Active tracing');
    expect(unused).not.toContain('dynamodb:GetItem table');
  });
});
