import { createHash } from 'node:crypto';
import type { Resource } from './calls.ts';

/**
 * The synthesized templates as they would stand in one stated test environment: every `Ref`, `Fn::GetAtt`,
 * `Fn::Join`, `Fn::Sub`, `Fn::Select`, `Fn::Split` and `Fn::ImportValue` resolved to the names and ARNs
 * CloudFormation would give, so the roles' policies and the recorded calls name the same resources.
 */
export const TEST_ENVIRONMENT = { partition: 'aws', region: 'eu-central-1', account: '123456789012' } as const;
const { partition, region, account } = TEST_ENVIRONMENT;

type Json = any;
export interface Template {
  Resources: Record<string, { Type: string; Properties?: Json; Metadata?: Json }>;
  Outputs?: Record<string, { Value: Json; Export?: { Name: Json } }>;
}
export type Templates = Record<string, Template>;

const arn = (service: string, resource: string, inRegion = true, inAccount = true) =>
  `arn:${partition}:${service}:${inRegion ? region : ''}:${inAccount ? account : ''}:${resource}`;
const short = (text: string, n: number) => createHash('sha256').update(text).digest('hex').slice(0, n);

export class Environment {
  private readonly exports = new Map<string, { stack: string; value: Json }>();
  constructor(readonly templates: Templates) {
    for (const [stack, template] of Object.entries(templates))
      for (const output of Object.values(template.Outputs ?? {}))
        if (output.Export) this.exports.set(this.resolve(stack, output.Export.Name), { stack, value: output.Value });
  }

  /** The physical name CloudFormation would generate (`<stack>-<logical id>-<suffix>`), or the one the template sets. */
  private name(stack: string, id: string): string {
    const resource = this.templates[stack].Resources[id];
    const given = resource?.Properties;
    const set = given?.TableName ?? given?.BucketName ?? given?.FunctionName ?? given?.RoleName ?? given?.Name;
    if (typeof set === 'string') return set;
    const generated = `${stack}-${id}-${short(stack + id, 12).toUpperCase()}`;
    return resource?.Type === 'AWS::S3::Bucket' ? generated.toLowerCase() : generated;
  }

  private ref(stack: string, id: string): string {
    const pseudo: Record<string, string> = {
      'AWS::Partition': partition,
      'AWS::Region': region,
      'AWS::AccountId': account,
      'AWS::URLSuffix': 'amazonaws.com',
      'AWS::StackName': stack,
    };
    if (pseudo[id]) return pseudo[id];
    const resource = this.templates[stack].Resources[id];
    if (!resource) throw new Error(`${stack}: Ref to unknown ${id}`);
    const name = this.name(stack, id);
    switch (resource.Type) {
      case 'AWS::SecretsManager::Secret':
        return arn('secretsmanager', `secret:${name}-${short(name, 6)}`);
      case 'AWS::StepFunctions::StateMachine':
        return arn('states', `stateMachine:${name}`);
      case 'AWS::SNS::Topic':
        return arn('sns', name);
      case 'AWS::SQS::Queue':
        return `https://sqs.${region}.amazonaws.com/${account}/${name}`;
      case 'AWS::ApiGatewayV2::Api':
        return short(name, 10);
      case 'AWS::ApiGatewayV2::Stage':
        return resource.Properties.StageName;
      default:
        return name;
    }
  }

  private getAtt(stack: string, id: string, attribute: string): string {
    const resource = this.templates[stack].Resources[id];
    if (!resource) throw new Error(`${stack}: Fn::GetAtt of unknown ${id}`);
    const name = this.name(stack, id);
    const table = arn('dynamodb', `table/${name}`);
    const byType: Record<string, Record<string, string>> = {
      'AWS::DynamoDB::GlobalTable': { Arn: table, StreamArn: `${table}/stream/2026-01-01T00:00:00.000` },
      'AWS::DynamoDB::Table': { Arn: table, StreamArn: `${table}/stream/2026-01-01T00:00:00.000` },
      'AWS::S3::Bucket': { Arn: `arn:${partition}:s3:::${name}` },
      'AWS::IAM::Role': { Arn: arn('iam', `role/${name}`, false) },
      'AWS::Lambda::Function': { Arn: arn('lambda', `function:${name}`) },
      'AWS::SQS::Queue': { Arn: arn('sqs', name), QueueName: name },
      'AWS::StepFunctions::StateMachine': { Name: name },
      'AWS::Logs::LogGroup': { Arn: arn('logs', `log-group:${name}:*`) },
      'AWS::ApiGatewayV2::Api': {
        ApiEndpoint: `${resource.Properties?.ProtocolType === 'WEBSOCKET' ? 'wss' : 'https'}://${this.ref(stack, id)}.execute-api.${region}.amazonaws.com`,
      },
    };
    return byType[resource.Type]?.[attribute] ?? `${name}.${attribute}`;
  }

  /** A template value of `stack` with every intrinsic function resolved. */
  resolve(stack: string, value: Json): Json {
    if (Array.isArray(value)) return value.map((v) => this.resolve(stack, v));
    if (value === null || typeof value !== 'object') return value;
    const keys = Object.keys(value);
    if (keys.length === 1) {
      const [fn] = keys;
      const arg = value[fn];
      if (fn === 'Ref') return this.ref(stack, arg);
      if (fn === 'Fn::GetAtt') {
        const [id, attribute] = Array.isArray(arg) ? arg : String(arg).split('.');
        return this.getAtt(stack, id, attribute);
      }
      if (fn === 'Fn::Join') return (this.resolve(stack, arg[1]) as string[]).join(arg[0]);
      if (fn === 'Fn::Select') return this.resolve(stack, arg[1])[Number(this.resolve(stack, arg[0]))];
      if (fn === 'Fn::Split') return String(this.resolve(stack, arg[1])).split(arg[0]);
      if (fn === 'Fn::ImportValue') {
        const name = this.resolve(stack, arg);
        const exported = this.exports.get(name);
        if (!exported) throw new Error(`${stack}: Fn::ImportValue of ${name}, which no stack exports`);
        return this.resolve(exported.stack, exported.value);
      }
      if (fn === 'Fn::Sub') {
        const [text, vars] = Array.isArray(arg) ? arg : [arg, {}];
        return String(text).replace(/\$\{([^}]+)\}/g, (_, name: string) => {
          if (vars[name] !== undefined) return this.resolve(stack, vars[name]);
          const [id, attribute] = name.split('.');
          return attribute ? this.getAtt(stack, id, attribute) : this.ref(stack, id);
        });
      }
    }
    return Object.fromEntries(keys.map((k) => [k, this.resolve(stack, value[k])]));
  }

  /** The first resource of `type` whose logical id starts with `prefix` (CDK's id plus its hash), in any stack. */
  find(type: string, prefix: string, stack?: string): { stack: string; id: string } | undefined {
    for (const [name, template] of Object.entries(this.templates)) {
      if (stack && name !== stack) continue;
      for (const [id, resource] of Object.entries(template.Resources))
        if (resource.Type === type && new RegExp(`^${prefix}[0-9A-F]{8}$`).test(id)) return { stack: name, id };
    }
    return undefined;
  }

  /** The ARN of a recorded resource in this environment (the app has one table, one bucket, one room API...). */
  arnOf(resource: Resource): string {
    const one = (type: string, prefix: string) => {
      const found = this.find(type, prefix);
      if (!found) throw new Error(`no ${type} ${prefix} in the templates`);
      return found;
    };
    switch (resource.kind) {
      case 'table': {
        const { stack, id } = one('AWS::DynamoDB::GlobalTable', 'Table');
        const table = this.getAtt(stack, id, 'Arn');
        return resource.index ? `${table}/index/${resource.index}` : table;
      }
      case 'object': {
        const { stack, id } = one('AWS::S3::Bucket', 'Files');
        return `${this.getAtt(stack, id, 'Arn')}/${resource.key}`;
      }
      case 'secret': {
        const prefix = { participation: 'ParticipationKey', docservice: 'DocserviceKey' }[resource.id];
        if (!prefix) return resource.id;
        const { stack, id } = one('AWS::SecretsManager::Secret', prefix);
        return this.ref(stack, id);
      }
      case 'stateMachine': {
        const { stack, id } = one('AWS::StepFunctions::StateMachine', 'RoomTimers');
        return this.ref(stack, id);
      }
      case 'channelNamespace': {
        const namespace = resource.channel.split('/').filter(Boolean)[0];
        const api = one('AWS::AppSync::Api', 'RoomEvents');
        return arn('appsync', `apis/${this.getAtt(api.stack, api.id, 'ApiId')}/channelNamespace/${namespace}`);
      }
      case 'connection': {
        const { stack, id } = one('AWS::ApiGatewayV2::Api', 'Room');
        const stage = one('AWS::ApiGatewayV2::Stage', 'Live');
        const stageName = this.templates[stage.stack].Resources[stage.id].Properties.StageName;
        return arn('execute-api', `${this.ref(stack, id)}/${stageName}/${resource.method}/@connections/<id>`);
      }
    }
  }
}
