import { ArnFormat, CfnOutput, Duration, Fn, RemovalPolicy, Stack, type StackProps } from 'aws-cdk-lib';
import { CorsHttpMethod, HttpApi, HttpMethod, HttpRoute, HttpRouteKey } from 'aws-cdk-lib/aws-apigatewayv2';
import { HttpLambdaAuthorizer, HttpLambdaResponseType } from 'aws-cdk-lib/aws-apigatewayv2-authorizers';
import type { ITableV2 } from 'aws-cdk-lib/aws-dynamodb';
import { ManagedPolicy, PolicyStatement, Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import type { IBucket } from 'aws-cdk-lib/aws-s3';
import type { ISecret } from 'aws-cdk-lib/aws-secretsmanager';
import type { ITopic } from 'aws-cdk-lib/aws-sns';
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import type { Construct } from 'constructs';
import { docserviceAccess, type RouteDefinition, routes } from '../functions/routes.ts';
import { AppFunction } from './app-function.ts';
import { grantSecretValue, justifyGrant } from './iam.ts';
import { corsPolicy } from './cors.ts';
import { bundleOf } from './lambda-bundles.ts';
import { RoleInvokedLambdaIntegration } from './role-invoked-integration.ts';
import { ApiOperations } from './operations.ts';
import { CustomDomain } from './custom-domain.ts';
import type { DomainParameters } from './parameters.ts';
import { SECURITY_DEFAULTS, type SecurityParameters } from './security-parameters.ts';

/** The observers' broadcast as the room page hands it on (RoomStack `observers`). */
export interface RoomEvents {
  url: string;
  host: string;
  apiKey: string;
}

export interface ApiStackProps extends StackProps {
  table: ITableV2;
  /** The document service's bucket and signing key (DataStack). */
  files: IBucket;
  docserviceKey: ISecret;
  /** Keys bidders' participation links (DataStack); read only by the routes that declare `secrets: ['participation']`. */
  participationKey: ISecret;
  /** Stage throttling and the 5xx alarm (lib/parameters.ts). */
  throttle: { rateLimit: number; burstLimit: number };
  api5xxThreshold: number;
  alarmTopic: ITopic;
  /** Public base URL, per-key limits, auth-failure and throttle alarm thresholds (lib/security-parameters.ts). */
  security?: SecurityParameters;
  /** Browser origins allowed by CORS (context `corsOrigins`); none: no CORS. */
  corsOrigins?: string[];
  /** The API's own domain (context `apiDomain`, lib/parameters.ts): mapped to it, and the base of its links. */
  domain?: DomainParameters;
}

const functionId = (handler: string) =>
  handler
    .split(/[/-]/)
    .map((part) => part.charAt(0).toUpperCase() + part.slice(1))
    .join('');

/**
 * A handler module serving several types (or API versions) is one function per type (or version); its HEAD route
 * (the GET's handler) one more, as every route has its own.
 */
const routeFunctionId = (route: Pick<RouteDefinition, 'handler' | 'type' | 'apiVersion' | 'method'>) =>
  functionId(route.handler) +
  (route.type ? functionId(route.type) : route.apiVersion ? functionId(`v${route.apiVersion}`) : '') +
  (route.method === 'HEAD' ? 'Head' : '');

/**
 * The stack a route's function, integration and route live in (lib/route-stack.ts), from its path: one per API
 * version, each a registry or procedure family (0.1 lots and basic assets, 2.3 dgfInsider, 2.4 bounce assets,
 * 2.5 landlease), and `Service` for the paths without a version (schemas, docservice, docs, health). A new route lands
 * in its family's stack, a new API version in a stack of its own; test/infra/stacks.test.ts keeps each under 400
 * resources (about 3 a route: CloudFormation refuses a stack past 500).
 */
export const routeStackOf = (route: Pick<RouteDefinition, 'path'>): string => {
  const version = /^\/api\/(\d+)\.(\d+)\//.exec(route.path);
  return version ? `V${version[1]}-${version[2]}` : 'Service';
};

/** The routes of each route stack (`$default` stays with the API). */
export const routesByStack = (table: readonly RouteDefinition[] = routes): Map<string, RouteDefinition[]> => {
  const byStack = new Map<string, RouteDefinition[]>();
  for (const route of table.filter((r) => r.path !== '$default'))
    byStack.set(routeStackOf(route), [...(byStack.get(routeStackOf(route)) ?? []), route]);
  return byStack;
};

/**
 * The HTTP API: one Lambda per entry of routes.ts, all behind one REQUEST authorizer. The authorizer identifies
 * the caller and spends one request of its key's token bucket on every request (no identity source, no API Gateway
 * cache: a missing key must reach the handler to get the service's 401 envelope, and a cached result would skip the
 * bucket; the authorizer caches key lookups in memory, keyed on the credential, instead).
 *
 * This stack holds what the routes share (the API, its stage, the authorizer, the 404 function, the invoker and
 * execution roles, the route log group, the alarms and the outputs); the route functions, their integrations and
 * routes live in the route stacks (`routeStackOf`), each made by `serve`.
 */
export class ApiStack extends Stack {
  readonly api: HttpApi;
  /** The API's public base URL: the `publicBaseUrl` security parameter, else its domain (`apiDomain`), else its endpoint. */
  readonly publicUrl: string;
  /**
   * Makes a route's function, integration and API route in `scope` (a route stack of this API). A route that shows
   * the room's WebSocket (`roomSocket`) is given `roomSocket`, the room stage's URL (AGORA_ROOM_SOCKET), and the
   * observers' broadcast (AGORA_ROOM_EVENTS: its URL, host and key).
   */
  readonly serve: (scope: Construct, route: RouteDefinition, roomSocket?: string, roomEvents?: RoomEvents) => void;
  constructor(scope: Construct, id: string, props: ApiStackProps) {
    super(scope, id, props);
    const security = props.security ?? { ...SECURITY_DEFAULTS, keyBurst: SECURITY_DEFAULTS.keyRate * 2 };
    const authorizerFunction = new AppFunction(this, 'Authorizer', {
      handler: 'auth/authorizer',
      table: props.table,
      access: 'ro',
      environment:
        security.keyRate > 0
          ? { AGORA_KEY_RATE: String(security.keyRate), AGORA_KEY_BURST: String(security.keyBurst) }
          : {},
    });
    // The token buckets: the authorizer writes its own items (RATE#<key name>) and nothing else.
    authorizerFunction.addToRolePolicy(
      new PolicyStatement({
        actions: ['dynamodb:UpdateItem'],
        resources: [props.table.tableArn],
        conditions: { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': ['RATE#*'] } },
      }),
    );
    const authorizer = new HttpLambdaAuthorizer('ApiKeys', authorizerFunction, {
      responseTypes: [HttpLambdaResponseType.SIMPLE],
      identitySource: [],
      resultsCacheTtl: Duration.seconds(0),
    });
    const fallback = routes.find((r) => r.path === '$default')!;
    const notFound = new AppFunction(this, functionId(fallback.handler), {
      handler: fallback.handler,
      table: props.table,
      access: 'none',
    });
    // API Gateway invokes the route functions with one role: theirs are named after their stacks, `<this stack>-*`.
    const invoker = new Role(this, 'RouteInvoker', { assumedBy: new ServicePrincipal('apigateway.amazonaws.com') });
    invoker.addToPrincipalPolicy(
      new PolicyStatement({
        actions: ['lambda:InvokeFunction'],
        resources: [
          this.formatArn({
            service: 'lambda',
            resource: 'function',
            resourceName: `${this.stackName}-*`,
            arnFormat: ArnFormat.COLON_RESOURCE_NAME,
          }),
        ],
      }),
    );
    const cors = props.corsOrigins?.length ? corsPolicy(props.corsOrigins) : undefined;
    this.api = new HttpApi(this, 'Api', {
      defaultIntegration: new RoleInvokedLambdaIntegration('NotFound', notFound, invoker),
      // API Gateway answers the preflight itself (before the authorizer) and adds the headers to every answer.
      ...(cors && {
        corsPreflight: {
          ...cors,
          allowMethods: cors.allowMethods.map((m) => CorsHttpMethod[m]),
          maxAge: Duration.seconds(cors.maxAgeSeconds),
        },
      }),
    });
    // One execution role per table-access level, shared by the route functions: a role and a policy per function
    // would take the stack past CloudFormation's 500 resources. Each function still gets exactly its level's grant.
    const roles = new Map<string, Role>();
    const roleFor = (access: string) => {
      if (!roles.has(access)) {
        const prefix = access.charAt(0).toUpperCase() + access.slice(1);
        roles.set(
          access,
          new Role(this, `${prefix}RouteRole`, {
            assumedBy: new ServicePrincipal('lambda.amazonaws.com'),
            managedPolicies: [ManagedPolicy.fromAwsManagedPolicyName('service-role/AWSLambdaBasicExecutionRole')],
          }),
        );
      }
      return roles.get(access)!;
    };
    // Routes on documents read the signing key and tag files attached; the docservice routes also read and write files.
    const docserviceRoles = new Set<Role>();
    const docserviceRole = (route: RouteDefinition) => {
      const access = docserviceAccess(route);
      if (!access) return roleFor(route.table);
      const role = roleFor(`${route.table}${access.charAt(0).toUpperCase()}${access.slice(1)}`);
      if (!docserviceRoles.has(role)) {
        docserviceRoles.add(role);
        grantSecretValue(props.docserviceKey, role);
        if (access === 'files') {
          // Upload (PutObject, with its tags), registered upload (HeadObject: GetObject), download (a presigned GET).
          role.addToPrincipalPolicy(
            new PolicyStatement({
              actions: ['s3:GetObject', 's3:PutObject', 's3:PutObjectTagging'],
              resources: [props.files.arnForObjects('files/*')],
            }),
          );
          role.addToPrincipalPolicy(
            new PolicyStatement({ actions: ['s3:ListBucket'], resources: [props.files.bucketArn] }),
          );
          justifyGrant(role, {
            actions: ['s3:ListBucket'],
            why: 'S3 answers a HeadObject of a missing file 404 only to a role that may list the bucket (403 without): the file store tells "not uploaded yet" from a refusal by it.',
          });
        } else if (route.table === 'rw')
          // Only a write takes files: a reading route's documents are already attached.
          role.addToPrincipalPolicy(
            new PolicyStatement({
              actions: ['s3:PutObjectTagging'],
              resources: [props.files.arnForObjects('files/*')],
            }),
          );
      }
      return role;
    };
    const docserviceEnvironment = {
      DOCSERVICE_SECRET_ARN: props.docserviceKey.secretArn,
      FILES_BUCKET: props.files.bucketName,
    };
    // Routes that sign participation links get their own role with the secret's read grant (never the shared one).
    const participationRoles = new Set<Role>();
    const routeRole = (route: RouteDefinition) => {
      if (!route.secrets?.includes('participation')) return docserviceRole(route);
      if (docserviceAccess(route))
        throw new Error(`${route.path}: a route reads either the docservice key or the participation secret`);
      const role = roleFor(`${route.table}Participation`);
      if (!participationRoles.has(role)) {
        participationRoles.add(role);
        grantSecretValue(props.participationKey, role);
      }
      return role;
    };
    // One log group for the route functions, for the same reason as the roles (each line names its function's stream
    // and carries the route key); the authorizer and the 404 function keep their own.
    const routeLogs = new LogGroup(this, 'RouteLogs', {
      retention: RetentionDays.ONE_MONTH,
      removalPolicy: RemovalPolicy.DESTROY,
    });
    if (props.domain) new CustomDomain(this, 'ApiDomain', { ...props.domain, api: this.api, serves: 'the HTTP API' });
    // Absolute links are built from this base, never from a request's Host or X-Forwarded-Proto.
    this.publicUrl =
      security.publicBaseUrl ?? (props.domain ? `https://${props.domain.domainName}` : this.api.apiEndpoint);
    const linkEnvironment = { AGORA_PUBLIC_URL: this.publicUrl };
    // Its bundle holds the envelope, which builds links from this base (test/support/aws/settings.ts): told it too.
    notFound.addEnvironment('AGORA_PUBLIC_URL', this.publicUrl);
    this.serve = (scope, route, roomSocket, roomEvents) => {
      if (route.roomSocket && !(roomSocket && roomEvents))
        throw new Error(`${route.path}: shows the room's WebSocket and broadcast; not both given`);
      const id = routeFunctionId(route);
      const documents = docserviceAccess(route) !== undefined;
      const participation = route.secrets?.includes('participation');
      const fn = new AppFunction(scope, id, {
        handler: route.handler,
        bundle: bundleOf(route),
        table: props.table,
        access: route.table,
        role: routeRole(route),
        logGroup: routeLogs,
        environment: {
          ...linkEnvironment,
          ...(documents && docserviceEnvironment),
          ...(participation && { PARTICIPATION_SECRET_ARN: props.participationKey.secretArn }),
          ...(route.roomSocket && {
            AGORA_ROOM_SOCKET: roomSocket!,
            AGORA_ROOM_EVENTS: Fn.join(' ', [roomEvents!.url, roomEvents!.host, roomEvents!.apiKey]),
          }),
          ...(route.auth === 'read' && security.readsNeedKey && { AGORA_READS_NEED_KEY: '1' }),
        },
        ...((documents || participation) && { secretsExtension: true }),
      });
      new HttpRoute(scope, `${route.method}${route.path}`, {
        httpApi: this.api,
        routeKey: HttpRouteKey.with(route.path, HttpMethod[route.method]),
        integration: new RoleInvokedLambdaIntegration(`${id}Integration`, fn, invoker),
        authorizer: route.auth === 'public' ? undefined : authorizer,
      });
    };
    new ApiOperations(this, 'Operations', {
      api: this.api,
      throttle: props.throttle,
      alarmTopic: props.alarmTopic,
      serverErrorThreshold: props.api5xxThreshold,
      authFailureThreshold: security.authFailureThreshold,
      throttleThreshold: security.throttleThreshold,
    });
    new CfnOutput(this, 'ApiUrl', {
      value: props.domain ? `https://${props.domain.domainName}` : this.api.apiEndpoint,
      description: 'The base URL of the API (append /api/0.1/lots, /api/docs ...)',
    });
  }
}
