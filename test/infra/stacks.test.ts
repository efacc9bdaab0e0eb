import { App } from 'aws-cdk-lib';
import { Match, Template } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../bin/agora.ts';
import { bots } from '../../functions/bots.ts';
import { routes } from '../../functions/routes.ts';
import { INDEXES, TABLE_KEYS } from '../../functions/store/table-design.ts';

let api: Template;
let data: Template;
let botsTemplate: Template;

beforeAll(() => {
  // No bundling in tests: the templates are what matters here, not the code assets.
  const built = buildApp(new App({ context: { 'aws:cdk:bundling-stacks': [] } }));
  api = Template.fromStack(built.api);
  data = Template.fromStack(built.data);
  botsTemplate = Template.fromStack(built.bots);
});

type Resource = { Type: string; Properties: Record<string, any> };

/** The DynamoDB actions granted to the role of the function behind each route key. */
function actionsByRoute(): Map<string, string[]> {
  const resources = api.toJSON().Resources as Record<string, Resource>;
  const routeTargets = Object.values(resources).filter((r) => r.Type === 'AWS::ApiGatewayV2::Route');
  const integrations = resources;
  const out = new Map<string, string[]>();
  for (const route of routeTargets) {
    const integrationId = route.Properties.Target['Fn::Join'][1][1].Ref as string;
    const fnId = integrations[integrationId].Properties.IntegrationUri['Fn::GetAtt'][0] as string;
    const roleId = resources[fnId].Properties.Role['Fn::GetAtt'][0] as string;
    const policies = Object.values(resources).filter(
      (r) => r.Type === 'AWS::IAM::Policy' && r.Properties.Roles.some((x: any) => x.Ref === roleId),
    );
    const actions = policies.flatMap((p) => p.Properties.PolicyDocument.Statement.flatMap((s: any) => [s.Action].flat()));
    out.set(route.Properties.RouteKey, actions.filter((a: string) => a.startsWith('dynamodb:')));
  }
  return out;
}

describe('ApiStack', () => {
  it('makes one function per route plus the authorizer', () => {
    api.resourceCountIs('AWS::Lambda::Function', routes.length + 1);
  });

  it('serves every route of the route table, each behind the authorizer', () => {
    const apiRoutes = routes.filter((r) => r.path !== '$default');
    api.resourceCountIs('AWS::ApiGatewayV2::Route', apiRoutes.length + 1);
    for (const r of apiRoutes) {
      api.hasResourceProperties('AWS::ApiGatewayV2::Route', { RouteKey: `${r.method} ${r.path}`, AuthorizationType: 'CUSTOM' });
    }
    api.hasResourceProperties('AWS::ApiGatewayV2::Route', { RouteKey: '$default' });
  });

  it('identifies callers with a REQUEST authorizer that answers simply and is never cached', () => {
    api.hasResourceProperties('AWS::ApiGatewayV2::Authorizer', {
      AuthorizerType: 'REQUEST',
      EnableSimpleResponses: true,
      AuthorizerResultTtlInSeconds: 0,
    });
  });

  it('gives read routes read-only table access and write routes write access', () => {
    const actions = actionsByRoute();
    for (const r of routes.filter((r) => r.path !== '$default')) {
      const granted = actions.get(`${r.method} ${r.path}`) ?? [];
      if (r.table === 'ro') {
        expect(granted, r.handler).toContain('dynamodb:Query');
        expect(granted.filter((a) => /Put|Update|Delete|Write/.test(a)), r.handler).toEqual([]);
      }
      if (r.table === 'rw') expect(granted, r.handler).toContain('dynamodb:PutItem');
    }
  });

  it('runs handlers on an ESM Node runtime on arm64 with the table name in the environment', () => {
    api.hasResourceProperties('AWS::Lambda::Function', {
      Runtime: Match.stringLikeRegexp('^nodejs2[2-9]'),
      Architectures: ['arm64'],
      Environment: { Variables: Match.objectLike({ TABLE_NAME: Match.anyValue() }) },
    });
  });
});

describe('DataStack', () => {
  it('builds the single table from table-design.ts', () => {
    data.hasResourceProperties('AWS::DynamoDB::GlobalTable', {
      KeySchema: [
        { AttributeName: TABLE_KEYS.partitionKey, KeyType: 'HASH' },
        { AttributeName: TABLE_KEYS.sortKey, KeyType: 'RANGE' },
      ],
      BillingMode: 'PAY_PER_REQUEST',
      GlobalSecondaryIndexes: INDEXES.map((i) =>
        Match.objectLike({
          IndexName: i.name,
          KeySchema: [
            { AttributeName: i.partitionKey, KeyType: 'HASH' },
            { AttributeName: i.sortKey, KeyType: 'RANGE' },
          ],
        }),
      ),
    });
  });

  it('protects the data: point-in-time recovery, deletion protection, retained on stack deletion', () => {
    data.hasResource('AWS::DynamoDB::GlobalTable', {
      DeletionPolicy: 'Retain',
      Properties: Match.objectLike({
        Replicas: [Match.objectLike({ DeletionProtectionEnabled: true, PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true } })],
      }),
    });
  });
});

describe('BotsStack', () => {
  it('schedules every bot of the bot table in Europe/Kyiv', () => {
    botsTemplate.resourceCountIs('AWS::Scheduler::Schedule', bots.length);
    for (const bot of bots) {
      botsTemplate.hasResourceProperties('AWS::Scheduler::Schedule', {
        ScheduleExpression: bot.schedule,
        ScheduleExpressionTimezone: 'Europe/Kyiv',
      });
    }
  });
});
