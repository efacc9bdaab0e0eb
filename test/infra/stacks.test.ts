import { Match, Template } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import { routeStackOf } from '../../lib/api-stack.ts';
import { bots } from '../../functions/bots.ts';
import { docserviceAccess, routes } from '../../functions/routes.ts';
import { INDEXES, indexProjection, TABLE_KEYS } from '../../functions/store/table-design.ts';
import { synthesizeAsCli } from '../support/synth.ts';

let stacks: ReturnType<typeof synthesizeAsCli>;
let api: Template;
let routeTemplates: Template[];
let data: Template;
let botsTemplate: Template;

beforeAll(() => {
  // No bundling in tests: the templates are what matters here, not the code assets.
  const built = synthesizeAsCli();
  stacks = built;
  api = Template.fromStack(built.api);
  routeTemplates = built.routeStacks.map((s) => Template.fromStack(s));
  data = Template.fromStack(built.data);
  botsTemplate = Template.fromStack(built.bots);
});

type Resource = { Type: string; Properties: Record<string, any> };

/** The resources of the API stack and its route stacks (their logical ids do not collide). */
const apiResources = (): Record<string, Resource> =>
  Object.assign({}, ...[api, ...routeTemplates].map((t) => t.toJSON().Resources));

/** The logical id behind a `Fn::GetAtt`, or behind a `Fn::ImportValue` of an API stack export (a route stack's role). */
function logicalIdOf(value: any): string {
  if (value['Fn::GetAtt']) return value['Fn::GetAtt'][0];
  const exported = Object.values(api.toJSON().Outputs as Record<string, any>).find(
    (o) => o.Export?.Name === value['Fn::ImportValue'],
  );
  return logicalIdOf(exported.Value);
}

/** The functions of a built app's API stacks. */
const apiFunctions = (built: ReturnType<typeof synthesizeAsCli>): Resource[] =>
  [built.api, ...built.routeStacks].flatMap(
    (s) => Object.values(Template.fromStack(s).findResources('AWS::Lambda::Function')) as Resource[],
  );

/** The DynamoDB actions granted to the role of the function behind each route key. */
function actionsByRoute(): Map<string, string[]> {
  const resources = apiResources();
  const routeTargets = Object.values(resources).filter((r) => r.Type === 'AWS::ApiGatewayV2::Route');
  const integrations = resources;
  const out = new Map<string, string[]>();
  for (const route of routeTargets) {
    const integrationId = route.Properties.Target['Fn::Join'][1][1].Ref as string;
    const fnId = integrations[integrationId].Properties.IntegrationUri['Fn::GetAtt'][0] as string;
    const roleId = logicalIdOf(resources[fnId].Properties.Role);
    const policies = Object.values(resources).filter(
      (r) => r.Type === 'AWS::IAM::Policy' && r.Properties.Roles.some((x: any) => x.Ref === roleId),
    );
    const actions = policies.flatMap((p) =>
      p.Properties.PolicyDocument.Statement.flatMap((s: any) => [s.Action].flat()),
    );
    out.set(
      route.Properties.RouteKey,
      actions.filter((a: string) => a.startsWith('dynamodb:')),
    );
  }
  return out;
}

describe('ApiStack', () => {
  const count = (type: string) => Object.values(apiResources()).filter((r) => r.Type === type).length;

  it('makes one function per route plus the authorizer', () => {
    expect(count('AWS::Lambda::Function')).toBe(routes.length + 1);
  });

  it('serves every route of the route table, each behind the authorizer unless public', () => {
    const apiRoutes = routes.filter((r) => r.path !== '$default');
    expect(count('AWS::ApiGatewayV2::Route')).toBe(apiRoutes.length + 1);
    const served = new Map(
      Object.values(apiResources())
        .filter((r) => r.Type === 'AWS::ApiGatewayV2::Route')
        .map((r) => [r.Properties.RouteKey, r.Properties]),
    );
    for (const r of apiRoutes) {
      const authorization = r.auth === 'public' ? 'NONE' : 'CUSTOM';
      expect(served.get(`${r.method} ${r.path}`)?.AuthorizationType, r.path).toBe(authorization);
    }
    api.hasResourceProperties('AWS::ApiGatewayV2::Route', { RouteKey: '$default' });
  });

  it("puts each route in the stack of its API version, with the API's id and authorizer", () => {
    for (const [i, t] of routeTemplates.entries())
      for (const route of Object.values(t.findResources('AWS::ApiGatewayV2::Route')) as Resource[]) {
        const declared = routes.find((r) => `${r.method} ${r.path}` === route.Properties.RouteKey)!;
        expect(stacks.routeStacks[i].stackName).toBe(`Agora-dev-Api-${routeStackOf(declared)}`);
        expect(route.Properties.ApiId['Fn::ImportValue']).toMatch(/^Agora-dev-Api:ExportsOutputRefApi/);
        if (declared.auth !== 'public')
          expect(route.Properties.AuthorizerId['Fn::ImportValue']).toMatch(/^Agora-dev-Api:ExportsOutputRefApiApiKeys/);
      }
  });

  it("keeps every stack of the app under 400 resources (CloudFormation's limit is 500)", () => {
    const { app } = stacks;
    const sizes = Object.fromEntries(
      app.synth().stacks.map((s) => [s.stackName, Object.keys(s.template.Resources ?? {}).length]),
    );
    expect(Object.keys(sizes)).toEqual(expect.arrayContaining(['Agora-dev-Api', 'Agora-dev-Api-V2-5']));
    for (const [stack, size] of Object.entries(sizes)) expect(size, stack).toBeLessThanOrEqual(400);
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
        expect(
          granted.filter((a) => /Put|Update|Delete|Write/.test(a)),
          r.handler,
        ).toEqual([]);
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

  it('logs every function in JSON with the application level at INFO, where Lambda keeps the EMF metrics lines', () => {
    for (const template of [api, ...routeTemplates, botsTemplate]) {
      const functions = Object.values(template.findResources('AWS::Lambda::Function'));
      expect(functions.length).toBeGreaterThan(0);
      for (const fn of functions)
        expect(fn.Properties.LoggingConfig).toEqual({
          LogFormat: 'JSON',
          ApplicationLogLevel: 'INFO',
          SystemLogLevel: 'INFO',
          LogGroup: expect.anything(),
        });
    }
  });
});

describe('ApiStack document service', () => {
  const resources = apiResources;
  /** The function behind a route key, and every IAM statement of its role. */
  function functionOf(routeKey: string) {
    const all = resources();
    const route = Object.values(all).find(
      (r) => r.Type === 'AWS::ApiGatewayV2::Route' && r.Properties.RouteKey === routeKey,
    )!;
    const integrationId = route.Properties.Target['Fn::Join'][1][1].Ref as string;
    const fn = all[all[integrationId].Properties.IntegrationUri['Fn::GetAtt'][0] as string];
    const roleId = logicalIdOf(fn.Properties.Role);
    const statements = Object.values(all)
      .filter((r) => r.Type === 'AWS::IAM::Policy' && r.Properties.Roles.some((x: any) => x.Ref === roleId))
      .flatMap((p) => p.Properties.PolicyDocument.Statement as { Action: string | string[] }[]);
    return { fn, actions: statements.flatMap((s) => [s.Action].flat()) };
  }

  it('gives the docservice routes the signing secret (through the secrets extension) and the bucket', () => {
    for (const r of routes.filter((r) => docserviceAccess(r) === 'files')) {
      const { fn, actions } = functionOf(`${r.method} ${r.path}`);
      expect(Object.keys(fn.Properties.Environment.Variables), r.handler).toEqual(
        expect.arrayContaining(['DOCSERVICE_SECRET_ARN', 'FILES_BUCKET']),
      );
      expect(fn.Properties.Layers, r.handler).toHaveLength(1);
      expect(actions, r.handler).toEqual(
        expect.arrayContaining(['secretsmanager:GetSecretValue', 's3:PutObject', 's3:GetObject']),
      );
    }
  });

  it('lets document routes read the secret and, when they write, tag files attached, but neither read nor write file bytes', () => {
    const documentRoutes = routes.filter((r) => docserviceAccess(r) === 'keys');
    expect(documentRoutes.length).toBeGreaterThan(10);
    for (const r of documentRoutes) {
      const { actions } = functionOf(`${r.method} ${r.path}`);
      expect(actions, r.handler).toContain('secretsmanager:GetSecretValue');
      // A reading route's documents are attached already (test/aws/iam.test.ts found no read using the tag grant).
      expect(actions.includes('s3:PutObjectTagging'), r.handler).toBe(r.table === 'rw');
      expect(
        actions.filter((a) => a === 's3:PutObject' || a.startsWith('s3:GetObject')),
        r.handler,
      ).toEqual([]);
    }
  });

  it('keeps every other route away from the secret and the bucket', () => {
    const { fn, actions } = functionOf('GET /api/0.1/lots');
    expect(fn.Properties.Environment.Variables).not.toHaveProperty('DOCSERVICE_SECRET_ARN');
    expect(actions.filter((a) => /^(s3|secretsmanager):/.test(a))).toEqual([]);
  });

  it('lets API Gateway invoke the route functions with one role of the stack, not a permission per function', () => {
    const integrations = Object.values(resources()).filter((r) => r.Type === 'AWS::ApiGatewayV2::Integration');
    expect(integrations.length).toBe(routes.length);
    const roles = new Set(integrations.map((i) => logicalIdOf(i.Properties.CredentialsArn)));
    expect(roles.size).toBe(1);
    expect([...roles][0]).toContain('RouteInvoker');
    // Only the authorizer keeps a resource-based permission.
    expect(Object.values(resources()).filter((r) => r.Type === 'AWS::Lambda::Permission')).toHaveLength(1);
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
          // Indexes copy only what their readers use (a feed view, or nothing): a page never reads whole items.
          Projection: indexProjection(i),
        }),
      ),
    });
  });

  it('protects the data: point-in-time recovery, deletion protection, retained on stack deletion', () => {
    data.hasResource('AWS::DynamoDB::GlobalTable', {
      DeletionPolicy: 'Retain',
      Properties: Match.objectLike({
        Replicas: [
          Match.objectLike({
            DeletionProtectionEnabled: true,
            PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true },
          }),
        ],
      }),
    });
  });
});

describe('DataStack files', () => {
  it('keeps the document files in a private, encrypted, retained bucket that refuses plain HTTP', () => {
    data.hasResource('AWS::S3::Bucket', {
      DeletionPolicy: 'Retain',
      Properties: Match.objectLike({
        BucketEncryption: {
          ServerSideEncryptionConfiguration: [{ ServerSideEncryptionByDefault: { SSEAlgorithm: 'AES256' } }],
        },
        PublicAccessBlockConfiguration: {
          BlockPublicAcls: true,
          BlockPublicPolicy: true,
          IgnorePublicAcls: true,
          RestrictPublicBuckets: true,
        },
      }),
    });
    data.hasResourceProperties('AWS::S3::BucketPolicy', {
      PolicyDocument: {
        Statement: Match.arrayWith([
          Match.objectLike({ Effect: 'Deny', Action: 's3:*', Condition: { Bool: { 'aws:SecureTransport': 'false' } } }),
        ]),
      },
    });
  });

  it('expires uploads nobody attached, and abandoned multipart uploads', () => {
    data.hasResourceProperties('AWS::S3::Bucket', {
      LifecycleConfiguration: {
        Rules: Match.arrayWith([
          Match.objectLike({
            Status: 'Enabled',
            ExpirationInDays: 7,
            TagFilters: [{ Key: 'agora-attached', Value: 'no' }],
          }),
          Match.objectLike({ Status: 'Enabled', AbortIncompleteMultipartUpload: { DaysAfterInitiation: 1 } }),
        ]),
      },
    });
  });

  it('generates the docservice signing secret, never written in the template', () => {
    data.hasResource('AWS::SecretsManager::Secret', {
      DeletionPolicy: 'Retain',
      Properties: Match.objectLike({
        GenerateSecretString: Match.objectLike({ PasswordLength: 64 }),
        SecretString: Match.absent(),
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

  it('has the migrations as a one-off Lambda: 15 minutes, the table read/write, its name an output, no schedule', () => {
    const [migrate] = Object.entries(botsTemplate.findResources('AWS::Lambda::Function')).filter(([id]) =>
      id.startsWith('Migrate'),
    );
    expect(migrate[1].Properties).toMatchObject({ Timeout: 900 });
    expect(migrate[1].Properties.ReservedConcurrentExecutions).toBeUndefined();
    botsTemplate.hasOutput('MigrateFunctionName', { Value: { Ref: migrate[0] } });
    botsTemplate.resourceCountIs('AWS::Scheduler::Schedule', bots.length);
  });

  it('gives the participation secret only to the bots that declare it (none: links are computed by the routes)', () => {
    const functions = Object.values(botsTemplate.findResources('AWS::Lambda::Function')) as any[];
    const withSecret = functions.filter((f) => f.Properties.Environment?.Variables?.PARTICIPATION_SECRET_ARN);
    const declared = bots.filter((b) => b.secrets?.includes('participation')).length;
    expect(withSecret).toHaveLength(declared);
    const policies = JSON.stringify(botsTemplate.findResources('AWS::IAM::Policy'));
    expect(policies.includes('secretsmanager:GetSecretValue')).toBe(declared > 0);
    data.hasResourceProperties('AWS::SecretsManager::Secret', { Description: Match.stringLikeRegexp('participation') });
  });
});

describe('Operations (throttling, alarms, parameters)', () => {
  const build = (context: Record<string, unknown>) => synthesizeAsCli(context);

  it('throttles the API stage with the default rate and burst, and logs its access in JSON', () => {
    api.hasResourceProperties('AWS::ApiGatewayV2::Stage', {
      StageName: '$default',
      DefaultRouteSettings: { ThrottlingRateLimit: 100, ThrottlingBurstLimit: 200 },
      AccessLogSettings: { DestinationArn: Match.anyValue(), Format: Match.stringLikeRegexp('requestId') },
    });
  });

  it('takes stage name, throttling and bot schedules from context', () => {
    const built = build({
      stage: 'prod',
      account: '123456789012',
      region: 'eu-central-1',
      throttleRate: '20',
      throttleBurst: 40,
      botSchedules: '{"concierge":"rate(5 minutes)"}',
    });
    expect(built.api.stackName).toBe('Agora-prod-Api');
    Template.fromStack(built.api).hasResourceProperties('AWS::ApiGatewayV2::Stage', {
      DefaultRouteSettings: { ThrottlingRateLimit: 20, ThrottlingBurstLimit: 40 },
    });
    const schedules = Template.fromStack(built.bots);
    schedules.hasResourceProperties('AWS::Scheduler::Schedule', { ScheduleExpression: 'rate(5 minutes)' });
    schedules.hasResourceProperties('AWS::Scheduler::Schedule', {
      ScheduleExpression: bots.find((b) => b.name === 'convoy')!.schedule,
    });
  });

  it('sets the auction site and the calendar of every function from context; defaults without', () => {
    const env = (t: Template) =>
      Object.values(t.findResources('AWS::Lambda::Function')).map(
        (f: any) => f.Properties.Environment?.Variables ?? {},
      );
    for (const vars of [...[api, ...routeTemplates].flatMap(env), ...env(botsTemplate)]) {
      // By default the auction site is the HTTP API, which serves the room page (test/infra/room-site.test.ts).
      expect(JSON.stringify(vars.AGORA_AUCTION_SITE)).toMatch(/ApiEndpoint/);
      expect(vars).toMatchObject({ AGORA_CALENDAR: 'martial-law' });
    }
    const built = build({ auctionSite: 'https://auction.example.org', calendar: 'peacetime' });
    const functions = [built.api, ...built.routeStacks, built.bots].map((s) => Template.fromStack(s));
    for (const vars of functions.flatMap(env)) {
      expect(vars).toMatchObject({ AGORA_AUCTION_SITE: 'https://auction.example.org', AGORA_CALENDAR: 'peacetime' });
    }
  });

  it('has no CORS by default; corsOrigins allows those origins with the key and token headers', () => {
    expect(Object.values(api.findResources('AWS::ApiGatewayV2::Api'))[0].Properties.CorsConfiguration).toBeUndefined();
    const built = build({ corsOrigins: 'https://app.example.org, https://admin.example.org' });
    Template.fromStack(built.api).hasResourceProperties('AWS::ApiGatewayV2::Api', {
      CorsConfiguration: {
        AllowOrigins: ['https://app.example.org', 'https://admin.example.org'],
        AllowHeaders: Match.arrayWith(['authorization', 'x-access-token']),
        ExposeHeaders: Match.arrayWith(['location']),
      },
    });
  });

  it('describes every stack output', () => {
    for (const t of [api, ...routeTemplates, data, botsTemplate]) {
      for (const [name, output] of Object.entries(t.toJSON().Outputs ?? {}) as [string, any][]) {
        if (!name.startsWith('ExportsOutput')) expect(output.Description, name).toBeTruthy();
      }
    }
  });

  it('refuses wrong parameters with a message naming them', () => {
    expect(() => build({ auctionSite: 'auction.example.org' })).toThrow(/auctionSite/);
    expect(() => build({ calendar: 'Peacetime' })).toThrow(/calendar/);
    expect(() => build({ corsOrigins: 'https://app.example.org/path' })).toThrow(/corsOrigins/);
    expect(() => build({ throttleRate: 'fast' })).toThrow(/throttleRate/);
    expect(() => build({ botSchedules: '{"nobody":"rate(1 minute)"}' })).toThrow(/unknown bot nobody/);
    expect(() => build({ botSchedules: '{"convoy":"every minute"}' })).toThrow(/botSchedules.convoy/);
    expect(() => build({ stage: 'no spaces' })).toThrow(/stage/);
  });

  it('alarms on API 5xx into the alarm topic', () => {
    api.hasResourceProperties('AWS::CloudWatch::Alarm', {
      Namespace: 'AWS/ApiGateway',
      MetricName: '5xx',
      Threshold: 5,
      AlarmActions: [Match.anyValue()],
    });
  });

  it("alarms on each bot's failed runs and failed items", () => {
    for (const bot of bots) {
      botsTemplate.hasResourceProperties('AWS::CloudWatch::Alarm', {
        Namespace: 'Agora',
        MetricName: 'BotItemFailures',
        Dimensions: Match.arrayWith([
          { Name: 'bot', Value: bot.name },
          { Name: 'service', Value: 'agora' },
        ]),
      });
    }
    const runAlarms = Object.values(
      botsTemplate.findResources('AWS::CloudWatch::Alarm', {
        Properties: { MetricName: 'Errors', Namespace: 'AWS/Lambda' },
      }),
    );
    expect(runAlarms).toHaveLength(bots.length);
  });

  it('sends alarms to an SNS topic that refuses plain HTTP, with an e-mail subscription when asked', () => {
    data.resourceCountIs('AWS::SNS::Topic', 1);
    data.resourceCountIs('AWS::SNS::Subscription', 0);
    const withMail = Template.fromStack(build({ alarmEmail: 'ops@example.org' }).data);
    withMail.hasResourceProperties('AWS::SNS::Subscription', { Protocol: 'email', Endpoint: 'ops@example.org' });
  });
});

describe('Security (links, per-key limits, alarms, bot capacity)', () => {
  const build = (context: Record<string, unknown>) => synthesizeAsCli(context);
  const functions = (template: Template) =>
    Object.values(template.findResources('AWS::Lambda::Function')) as Resource[];

  it("gives every route function the public base URL, by default the API's own endpoint", () => {
    const routeFns = [api, ...routeTemplates]
      .flatMap(functions)
      .filter((f) => f.Properties.Environment?.Variables?.AGORA_PUBLIC_URL);
    // $default's function too: its bundle holds the envelope, which builds links from it.
    expect(routeFns).toHaveLength(routes.length);
    expect(JSON.stringify(routeFns[0].Properties.Environment.Variables.AGORA_PUBLIC_URL)).toContain('ApiEndpoint');
    const configured = apiFunctions(build({ publicBaseUrl: 'https://api.example.org/' }));
    expect(
      configured.filter((f) => f.Properties.Environment?.Variables?.AGORA_PUBLIC_URL === 'https://api.example.org'),
    ).toHaveLength(routes.length);
    expect(() => build({ publicBaseUrl: 'javascript:alert(1)//' })).toThrow(/publicBaseUrl/);
  });

  it('lets anyone read public data (GETs behind the authorizer, read-only) unless context readsNeedKey', () => {
    const reads = routes.filter((r) => r.auth === 'read');
    expect(reads.length).toBeGreaterThan(20);
    for (const r of reads) expect([r.method, r.table === 'rw'], r.path).toEqual(['GET', false]);
    const flagged = (built: ReturnType<typeof build>) =>
      apiFunctions(built).filter((f) => f.Properties.Environment?.Variables?.AGORA_READS_NEED_KEY === '1');
    expect(flagged(stacks)).toEqual([]);
    // One function per route: exactly the reads' functions are told to ask for a key.
    expect(flagged(build({ readsNeedKey: 'true' }))).toHaveLength(reads.length);
    expect(() => build({ readsNeedKey: 'yes' })).toThrow(/readsNeedKey/);
  });

  it('limits each API key in the authorizer (context keyRate, keyBurst), which may write only the buckets', () => {
    const authorizer = functions(api).find((f) => f.Properties.Environment?.Variables?.AGORA_KEY_RATE);
    expect(authorizer?.Properties.Environment.Variables).toMatchObject({ AGORA_KEY_RATE: '20', AGORA_KEY_BURST: '40' });
    api.hasResourceProperties('AWS::IAM::Policy', {
      PolicyDocument: {
        Statement: Match.arrayWith([
          Match.objectLike({
            Action: 'dynamodb:UpdateItem',
            Condition: { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': ['RATE#*'] } },
          }),
        ]),
      },
    });
    const tuned = functions(Template.fromStack(build({ keyRate: 5, keyBurst: '8' }).api)).find(
      (f) => f.Properties.Environment?.Variables?.AGORA_KEY_RATE,
    );
    expect(tuned?.Properties.Environment.Variables).toMatchObject({ AGORA_KEY_RATE: '5', AGORA_KEY_BURST: '8' });
    expect(() => build({ keyRate: 'lots' })).toThrow(/keyRate/);
    data.hasResourceProperties('AWS::DynamoDB::GlobalTable', {
      TimeToLiveSpecification: { AttributeName: 'ttl', Enabled: true },
    });
  });

  it('alarms on spikes of 401/403 and of 429 answers into the alarm topic', () => {
    for (const [metric, threshold] of [
      ['AuthFailures', 100],
      ['Throttled', 50],
    ] as const) {
      api.hasResourceProperties('AWS::CloudWatch::Alarm', {
        Namespace: 'Agora',
        MetricName: metric,
        Threshold: threshold,
        Dimensions: [{ Name: 'service', Value: 'agora' }],
        AlarmActions: [Match.anyValue()],
      });
    }
  });

  it('reserves concurrency for each bot (context botConcurrency)', () => {
    // The migrations' Lambda is invoked by hand, once per upgrade, and the webhook delivery Lambda scales with its
    // queue: they reserve nothing. The scheduled bots run for a minute at most.
    const botFns = functions(botsTemplate).filter((fn) => fn.Properties.Timeout === 60);
    expect(botFns).toHaveLength(bots.length);
    for (const fn of botFns) expect(fn.Properties.ReservedConcurrentExecutions).toBe(1);
    const none = functions(Template.fromStack(build({ botConcurrency: 0 }).bots));
    for (const fn of none) expect(fn.Properties.ReservedConcurrentExecutions).toBeUndefined();
  });

  it('reserves the same for the room bot, as docs/operations.md says of every bot', () => {
    const roomBot = (built: ReturnType<typeof synthesizeAsCli>) =>
      Object.entries(Template.fromStack(built.room).findResources('AWS::Lambda::Function')).find(([id]) =>
        id.startsWith('RoomBot'),
      )?.[1] as Resource | undefined;
    expect(roomBot(stacks)?.Properties.ReservedConcurrentExecutions).toBe(1);
    expect(roomBot(build({ botConcurrency: 3 }))?.Properties.ReservedConcurrentExecutions).toBe(3);
    expect(roomBot(build({ botConcurrency: 0 }))?.Properties.ReservedConcurrentExecutions).toBeUndefined();
  });
});
