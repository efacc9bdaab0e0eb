import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { Stack } from 'aws-cdk-lib';
import type { CfnFunction } from 'aws-cdk-lib/aws-lambda';
import ts from 'typescript';
import { type Config, calendarMode, roomSocket } from '../../../functions/platform/config.ts';
import { AppFunction } from '../../../lib/app-function.ts';
import { synthesizeAsCli } from '../synth.ts';

/**
 * Setting parity: every variable a Lambda's configuration reads is set by CDK on that very function, in the template
 * the CLI synthesizes, with a value of the right shape; a secret it names is a secret of the stacks its role may read.
 *
 * Nothing here is a list per function. What a function reads is derived: its bundle (esbuild's metafile of the one
 * build CDK ships, lib/build.ts) holds source files, each reading `config().<field>`s; each field's variables are read
 * from `readConfig` in functions/platform/config.ts (its syntax tree). What is written by hand is one rule per config
 * field (SETTINGS: who sets it in AWS and what its value must look like), and TypeScript makes every field have one.
 */
const ROOT = join(import.meta.dirname, '..', '..', '..');
const CONFIG_FILE = join(ROOT, 'functions/platform/config.ts');

/** The test environment the templates' references are resolved in (the partition, region and account of a deploy). */
export const TEST_ENVIRONMENT = {
  partition: 'aws',
  region: 'us-east-1',
  account: '123456789012',
  urlSuffix: 'amazonaws.com',
};

type Shape = { says: string; ok: (value: string) => boolean };
const parses = (says: string, read: (v: string) => unknown): Shape => ({
  says,
  ok: (v) => {
    try {
      read(v);
      return true;
    } catch {
      return false;
    }
  },
});
const matches = (says: string, pattern: RegExp): Shape => ({ says, ok: (v) => pattern.test(v) });
const HTTPS = parses('an https:// URL', (v) => {
  if (new URL(v).protocol !== 'https:') throw new Error('not https');
});
const NUMBER = matches('a number', /^\d+(\.\d+)?$/);
const FLAG = matches('"0" or "1"', /^[01]$/);

/** A resource the value names: it must be one of the stacks' resources of this type; `read`: and the role may do this on it. */
type Names = { type: string; read?: string };
type Rule =
  /**
   * CDK must set every variable of the field on each function that reads it; `whereRoleMay`: only on those whose role
   * may do that action (a port every bundle of a family holds, used by the functions granted its call: the others
   * never make it, recording their calls would show one they make as denied).
   */
  | { by: 'cdk'; shape: Shape; names?: Names; whereRoleMay?: string }
  /** CDK may set it (the code has a default fit for AWS); if set, of this shape. */
  | { by: 'cdk-optional'; shape: Shape }
  /** The Lambda runtime sets it; `needs`: what the function's template must say for the runtime to set it. */
  | { by: 'lambda'; needs?: { says: string; ok: (fn: FunctionResource) => boolean } }
  /** Only the local runtime sets it: never in AWS. */
  | { by: 'local' };

/** One rule per config field (a new field without one does not compile). */
export const SETTINGS: Record<keyof Config, Rule> = {
  tableName: {
    by: 'cdk',
    shape: matches('a table name', /^[\w.-]{3,255}$/),
    names: { type: 'AWS::DynamoDB::GlobalTable' },
  },
  dynamodbEndpoint: { by: 'local' },
  awsRegion: { by: 'lambda' },
  inLambda: { by: 'lambda' },
  local: { by: 'local' },
  logLevel: {
    by: 'lambda',
    needs: {
      says: 'an application log level (LoggingConfig), which Lambda passes as AWS_LAMBDA_LOG_LEVEL',
      ok: (fn) => !!fn.Properties.LoggingConfig?.ApplicationLogLevel,
    },
  },
  metrics: { by: 'cdk-optional', shape: FLAG },
  calendar: { by: 'cdk', shape: parses('a calendar mode (martial-law, peacetime)', calendarMode) },
  auctionSite: { by: 'cdk', shape: HTTPS },
  publicUrl: { by: 'cdk', shape: HTTPS },
  roomSocket: { by: 'cdk', shape: parses('a wss:// URL without query', roomSocket) },
  // The observers' broadcast, on the room page (functions/room-page/http.ts `observersOf` reads it): the Event API's
  // real-time URL, its HTTP domain (Dns.Http) and the stack's API key (`<resource>.ApiKey` here), space-separated.
  observers: {
    by: 'cdk',
    shape: matches(
      'a wss:// URL, a host name and an API key',
      /^wss:\/\/[\w.-]+\/event\/realtime [\w.-]+ [\w-]+(\.ApiKey)?$/,
    ),
    names: { type: 'AWS::AppSync::Api' },
  },
  docserviceUrl: { by: 'cdk-optional', shape: HTTPS },
  keyRate: { by: 'cdk-optional', shape: NUMBER },
  addressRate: { by: 'cdk-optional', shape: NUMBER },
  readsNeedKey: { by: 'cdk-optional', shape: FLAG },
  participationSecretArn: {
    by: 'cdk',
    shape: matches('a secret ARN', /^arn:aws[\w-]*:secretsmanager:[a-z0-9-]+:\d{12}:secret:[\w/+=.@-]+$/),
    names: { type: 'AWS::SecretsManager::Secret', read: 'secretsmanager:GetSecretValue' },
  },
  participationSecret: { by: 'local' },
  roomCallbackUrl: { by: 'cdk', shape: HTTPS, names: { type: 'AWS::ApiGatewayV2::Api' } },
  roomTimersArn: {
    by: 'cdk',
    shape: matches('a state machine ARN', /^arn:aws[\w-]*:states:[a-z0-9-]+:\d{12}:stateMachine:[\w-]+$/),
    names: { type: 'AWS::StepFunctions::StateMachine' },
    // Every room Lambda's bundle holds the room's ports (room/ports.ts), the timer's among them; only a bid and the bot
    // arm timers (lib/room-stack.ts grants them StartExecution). The transition Lambda could not even be told the
    // state machine: the machine invokes it, so its ARN in the function's environment would be a dependency cycle.
    whereRoleMay: 'states:StartExecution',
  },
  roomEventsHost: {
    by: 'cdk',
    // The Event API's Dns.Http: a host name, no scheme nor path (the port adds both).
    shape: matches('a host name', /^[\w-]+(\.[\w-]+)+$/),
    names: { type: 'AWS::AppSync::Api' },
    // Every room Lambda's bundle holds the publish port; only those that change rooms publish (lib/room-stack.ts).
    whereRoleMay: 'appsync:EventPublish',
  },
  docserviceSecretArn: {
    by: 'cdk',
    shape: matches('a secret ARN', /^arn:aws[\w-]*:secretsmanager:[a-z0-9-]+:\d{12}:secret:[\w/+=.@-]+$/),
    names: { type: 'AWS::SecretsManager::Secret', read: 'secretsmanager:GetSecretValue' },
  },
  docserviceSeed: { by: 'local' },
  filesBucket: {
    by: 'cdk',
    shape: matches('a bucket name', /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/),
    names: { type: 'AWS::S3::Bucket' },
  },
  filesDir: { by: 'local' },
  faults: { by: 'local' },
  // Set with the Parameters and Secrets extension's layer (lib/app-function.ts `secretsExtension`).
  secretsExtensionPort: {
    by: 'cdk',
    shape: matches('a port', /^\d{1,5}$/),
  },
  awsSessionToken: { by: 'lambda' },
  xrayDaemonAddress: {
    by: 'lambda',
    needs: { says: 'active tracing (TracingConfig)', ok: (fn) => fn.Properties.TracingConfig?.Mode === 'Active' },
  },
  webhookTimeoutMs: { by: 'cdk-optional', shape: NUMBER },
  webhookFirstAttemptMs: { by: 'cdk-optional', shape: NUMBER },
};

/**
 * The variables each config field is read from: the `env.X` in its expression of `readConfig`'s answer, and in the
 * file's functions and `readConfig`'s constants that expression names (`keyRate(env)`, `inLambda`).
 */
export function variablesByField(): Map<string, string[]> {
  const source = ts.createSourceFile(CONFIG_FILE, readFileSync(CONFIG_FILE, 'utf8'), ts.ScriptTarget.Latest, true);
  const definitions = new Map<string, ts.Node>();
  let answer: ts.ObjectLiteralExpression | undefined;
  const visit = (node: ts.Node) => {
    if (ts.isFunctionDeclaration(node) && node.name) definitions.set(node.name.text, node);
    if (ts.isVariableDeclaration(node) && ts.isIdentifier(node.name) && node.initializer)
      definitions.set(node.name.text, node.initializer);
    if (ts.isFunctionDeclaration(node) && node.name?.text === 'readConfig')
      node.body?.statements.forEach((s) => {
        if (ts.isReturnStatement(s) && s.expression && ts.isObjectLiteralExpression(s.expression))
          answer = s.expression;
      });
    ts.forEachChild(node, visit);
  };
  visit(source);
  if (!answer) throw new Error('functions/platform/config.ts: readConfig returns no object literal');
  const variables = (node: ts.Node, seen = new Set<string>()): string[] => {
    const found: string[] = [];
    const walk = (n: ts.Node) => {
      if (ts.isPropertyAccessExpression(n) && ts.isIdentifier(n.expression) && n.expression.text === 'env')
        found.push(n.name.text);
      else if (ts.isIdentifier(n) && definitions.has(n.text) && !seen.has(n.text)) {
        seen.add(n.text);
        found.push(...variables(definitions.get(n.text)!, seen));
      }
      ts.forEachChild(n, walk);
    };
    walk(node);
    return [...new Set(found)];
  };
  return new Map(
    answer.properties.filter(ts.isPropertyAssignment).map((p) => [p.name.getText(source), variables(p.initializer)]),
  );
}

/** The config fields a source file reads: `config().field` and `const { field, other: alias } = config()`. */
export function fieldsReadIn(text: string): string[] {
  const fields = [...text.matchAll(/\bconfig\(\)\.(\w+)/g)].map((m) => m[1]);
  for (const [, names] of text.matchAll(/\b(?:const|let|var)\s*\{([^{}]*)\}\s*=\s*config\(\)/g))
    fields.push(
      ...names
        .split(',')
        .map((n) => n.split(':')[0].trim())
        .filter(Boolean),
    );
  return [...new Set(fields)];
}

interface Bundle {
  /** The source files with bytes in the bundle (esbuild's metafile). */
  sources: string[];
  /** The bundle's code (index.mjs), minified: property names survive, so reads of config fields show in it. */
  code: string;
}
let bundles: Map<string, Bundle> | undefined;
/** Each Lambda's bundle, by its folder (a handler module, or `<handler>.<type>`): one build, as CDK ships it (lib/build.ts). */
export function lambdaBundles(): Map<string, Bundle> {
  if (bundles) return bundles;
  const dir = mkdtempSync(join(tmpdir(), 'agora-settings-'));
  try {
    const script = `
      import { buildLambdas } from ${JSON.stringify(join(ROOT, 'lib/build.ts'))};
      const { metafile } = await buildLambdas({ outdir: ${JSON.stringify(dir)}, metafile: true });
      const out = {};
      for (const [file, o] of Object.entries(metafile.outputs)) {
        const at = file.lastIndexOf('/index.mjs');
        if (!o.entryPoint || at < 0) continue;
        out[file.slice(0, at).split(${JSON.stringify(relative(ROOT, dir))} + '/')[1]] =
          Object.entries(o.inputs).filter(([, i]) => i.bytesInOutput > 0).map(([f]) => f);
      }
      process.stdout.write(JSON.stringify(out));`;
    const json = execFileSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
      cwd: ROOT,
      encoding: 'utf8',
      maxBuffer: 64 * 1024 * 1024,
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    bundles = new Map(
      Object.entries(JSON.parse(json) as Record<string, string[]>).map(([handler, sources]) => [
        handler,
        { sources, code: readFileSync(join(dir, handler, 'index.mjs'), 'utf8') },
      ]),
    );
    return bundles;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * The config fields a handler's bundle reads: those its source files read (config.ts itself aside: it reads them all
 * for everyone) whose read esbuild kept in the bundle's code (a property access `.field`, or a key of an object
 * pattern taken from a call). A file whose reads were all shaken out (only an import's remnant is left) reads nothing.
 */
const fieldsByHandler = new Map<string, string[]>();
export function fieldsReadBy(handler: string): string[] {
  const known = fieldsByHandler.get(handler);
  if (known) return known;
  const bundle = lambdaBundles().get(handler);
  if (!bundle) throw new Error(`no bundle for ${handler} in the build`);
  const fields = bundle.sources
    .filter((f) => f.startsWith('functions/') && f !== 'functions/platform/config.ts')
    .flatMap((f) => fieldsReadIn(readFileSync(join(ROOT, f), 'utf8')));
  const kept = (field: string) =>
    new RegExp(`\\.${field}\\b`).test(bundle.code) ||
    new RegExp(`\\{[^{}]*\\b${field}\\b[^{}]*\\}=[\\w$]+\\(\\)`).test(bundle.code);
  const read = [...new Set(fields)].filter(kept).sort();
  fieldsByHandler.set(handler, read);
  return read;
}

// --- The synthesized templates, and their references resolved in TEST_ENVIRONMENT.

type Template = { Resources: Record<string, { Type: string; Properties?: any }>; Outputs?: Record<string, any> };
type FunctionResource = { Type: string; Properties: any };
interface Ref {
  stack: string;
  id: string;
  type: string;
}
interface Resolved {
  text: string;
  refs: Ref[];
}

class Templates {
  private readonly exports = new Map<string, { stack: string; value: unknown }>();
  constructor(readonly byStack: Map<string, Template>) {
    for (const [stack, t] of byStack)
      for (const out of Object.values(t.Outputs ?? {}))
        if (out.Export?.Name) this.exports.set(out.Export.Name, { stack, value: out.Value });
  }

  /** A physical name for a resource: what CloudFormation generates (`<stack>-<id>-<suffix>`), lower-cased where AWS wants. */
  private name(ref: Ref): string {
    const generated = `${ref.stack}-${ref.id}-1A2B3C4D5E6F`;
    return ref.type === 'AWS::S3::Bucket' ? generated.toLowerCase().slice(0, 63) : generated;
  }

  private arn(ref: Ref): string {
    const { partition: p, region: r, account: a } = TEST_ENVIRONMENT;
    const n = this.name(ref);
    switch (ref.type) {
      case 'AWS::SecretsManager::Secret':
        return `arn:${p}:secretsmanager:${r}:${a}:secret:${n}-AbCdEf`;
      case 'AWS::StepFunctions::StateMachine':
        return `arn:${p}:states:${r}:${a}:stateMachine:${n}`;
      case 'AWS::S3::Bucket':
        return `arn:${p}:s3:::${n}`;
      case 'AWS::DynamoDB::GlobalTable':
        return `arn:${p}:dynamodb:${r}:${a}:table/${n}`;
      case 'AWS::IAM::Role':
        return `arn:${p}:iam::${a}:role/${n}`;
      case 'AWS::SQS::Queue':
        return `arn:${p}:sqs:${r}:${a}:${n}`;
      case 'AWS::Lambda::Function':
        return `arn:${p}:lambda:${r}:${a}:function:${n}`;
      case 'AWS::SNS::Topic':
        return `arn:${p}:sns:${r}:${a}:${n}`;
      default:
        return `arn:${p}:${ref.type.split('::')[1]?.toLowerCase()}:${r}:${a}:${n}`;
    }
  }

  private apiId = (ref: Ref) =>
    ref.id
      .toLowerCase()
      .replace(/[^a-z0-9]/g, '')
      .slice(0, 10);

  private reference(stack: string, id: string, attribute?: string): Resolved {
    const resource = this.byStack.get(stack)?.Resources[id];
    if (!resource) return { text: `<unknown ${stack}/${id}>`, refs: [] };
    const ref = { stack, id, type: resource.Type };
    const { region, urlSuffix } = TEST_ENVIRONMENT;
    const text = (() => {
      if (attribute === undefined)
        switch (ref.type) {
          case 'AWS::SecretsManager::Secret':
          case 'AWS::StepFunctions::StateMachine':
          case 'AWS::SNS::Topic':
            return this.arn(ref);
          case 'AWS::ApiGatewayV2::Api':
            return this.apiId(ref);
          default:
            return this.name(ref);
        }
      if (attribute === 'ApiEndpoint') return `https://${this.apiId(ref)}.execute-api.${region}.${urlSuffix}`;
      if (attribute === 'StreamArn') return `${this.arn(ref)}/stream/2026-01-01T00:00:00.000`;
      if (attribute === 'Arn') return this.arn(ref);
      return `${this.name(ref)}.${attribute}`;
    })();
    return { text, refs: [ref] };
  }

  /** A template value (`Ref`, `Fn::GetAtt`, `Fn::ImportValue`, `Fn::Join`, `Fn::Select`, `Fn::Split`) as a string. */
  resolve(stack: string, value: unknown): Resolved {
    const { partition, region, account, urlSuffix } = TEST_ENVIRONMENT;
    if (typeof value === 'string' || typeof value === 'number') return { text: String(value), refs: [] };
    if (!value || typeof value !== 'object') return { text: `<${JSON.stringify(value)}>`, refs: [] };
    const v = value as Record<string, any>;
    if ('Ref' in v) {
      const pseudo: Record<string, string> = {
        'AWS::Partition': partition,
        'AWS::Region': region,
        'AWS::AccountId': account,
        'AWS::URLSuffix': urlSuffix,
        'AWS::StackName': stack,
      };
      if (v.Ref in pseudo) return { text: pseudo[v.Ref], refs: [] };
      return this.reference(stack, v.Ref);
    }
    if ('Fn::GetAtt' in v) {
      const [id, attribute] = Array.isArray(v['Fn::GetAtt']) ? v['Fn::GetAtt'] : String(v['Fn::GetAtt']).split('.');
      return this.reference(stack, id, attribute);
    }
    if ('Fn::ImportValue' in v) {
      const exported = this.exports.get(this.resolve(stack, v['Fn::ImportValue']).text);
      if (!exported) return { text: `<no export ${JSON.stringify(v['Fn::ImportValue'])}>`, refs: [] };
      return this.resolve(exported.stack, exported.value);
    }
    if ('Fn::Join' in v) {
      const [separator, parts] = v['Fn::Join'] as [string, unknown[]];
      const resolved = parts.map((p) => this.resolve(stack, p));
      return { text: resolved.map((r) => r.text).join(separator), refs: resolved.flatMap((r) => r.refs) };
    }
    if ('Fn::Split' in v) {
      const [separator, source] = v['Fn::Split'] as [string, unknown];
      const resolved = this.resolve(stack, source);
      return { text: JSON.stringify(resolved.text.split(separator)), refs: resolved.refs };
    }
    if ('Fn::Select' in v) {
      const [index, list] = v['Fn::Select'] as [number, unknown];
      const items = Array.isArray(list) ? list.map((l) => this.resolve(stack, l)) : undefined;
      if (items) return items[Number(index)] ?? { text: '<out of range>', refs: [] };
      const split = this.resolve(stack, list);
      return { text: (JSON.parse(split.text) as string[])[Number(index)] ?? '', refs: split.refs };
    }
    return { text: `<${Object.keys(v)[0]}>`, refs: [] };
  }

  /** The statements of a role's identity policies (its inline ones and the AWS::IAM::Policy resources attached to it). */
  statementsOf(role: Ref): { stack: string; statement: any }[] {
    const t = this.byStack.get(role.stack)!;
    const inline = (t.Resources[role.id].Properties?.Policies ?? []).flatMap((p: any) => p.PolicyDocument.Statement);
    const attached = Object.values(t.Resources)
      .filter((r) => r.Type === 'AWS::IAM::Policy')
      .filter((r) => (r.Properties?.Roles ?? []).some((x: any) => x?.Ref === role.id))
      .flatMap((r) => r.Properties.PolicyDocument.Statement);
    return [...inline, ...attached].map((statement) => ({ stack: role.stack, statement }));
  }
}

const glob = (pattern: string, value: string) =>
  new RegExp(
    `^${pattern
      .replace(/[.+^${}()|[\]\\]/g, '\\$&')
      .replace(/\*/g, '.*')
      .replace(/\?/g, '.')}$`,
  ).test(value);
const list = (x: unknown): unknown[] => (x === undefined ? [] : Array.isArray(x) ? x : [x]);

/** May the role do `action` on `arn`: an Allow statement whose action and resource patterns match (no Deny is written). */
function roleMay(templates: Templates, role: Ref, action: string, arn: string): boolean {
  return templates.statementsOf(role).some(({ stack, statement }) => {
    if (statement.Effect !== 'Allow' || statement.Condition) return false;
    const actions = list(statement.Action).map(String);
    if (!actions.some((a) => glob(a.toLowerCase(), action.toLowerCase()))) return false;
    return list(statement.Resource).some((r) => glob(templates.resolve(stack, r).text, arn));
  });
}

/** May the role do `action` on anything at all (an Allow statement naming it). */
function roleMayAtAll(templates: Templates, role: Ref, action: string): boolean {
  return templates
    .statementsOf(role)
    .some(
      ({ statement }) =>
        statement.Effect === 'Allow' &&
        list(statement.Action).some((a) => glob(String(a).toLowerCase(), action.toLowerCase())),
    );
}

export interface SettingsRow {
  fn: string;
  ok: boolean;
  detail: string;
}

/**
 * One row per Lambda of the app (`<stack>/<construct id>`): whether every setting its bundle reads is set on it, of
 * the right shape, naming a resource of the stacks its role may read. `built`: the app to check (by default the one
 * `npx cdk synth` builds).
 */
export function settingsReport(built: { app: import('aws-cdk-lib').App } = synthesizeAsCli()): SettingsRow[] {
  const assembly = built.app.synth({ force: true });
  const templates = new Templates(new Map(assembly.stacks.map((s) => [s.stackName, s.template as Template])));
  const variables = variablesByField();
  const functions = built.app.node.findAll().filter((c): c is AppFunction => c instanceof AppFunction);
  return functions.map((fn) => {
    const stack = Stack.of(fn).stackName;
    const id = Stack.of(fn).getLogicalId(fn.node.defaultChild as CfnFunction);
    const resource = templates.byStack.get(stack)!.Resources[id] as FunctionResource;
    const env: Record<string, unknown> = resource.Properties.Environment?.Variables ?? {};
    const problems: string[] = [];
    const fields = fieldsReadBy(fn.bundle);
    for (const field of fields) {
      const rule = SETTINGS[field as keyof Config];
      if (!rule) {
        problems.push(`config.${field} has no rule in test/support/aws/settings.ts`);
        continue;
      }
      const vars = variables.get(field) ?? [];
      if (rule.by === 'local') {
        for (const v of vars.filter((v) => v in env)) problems.push(`${v} (config.${field}) is local-only, set in AWS`);
        continue;
      }
      if (rule.by === 'lambda') {
        if (rule.needs && !rule.needs.ok(resource)) problems.push(`config.${field} needs ${rule.needs.says}`);
        continue;
      }
      if (rule.by === 'cdk' && vars.length === 0) problems.push(`config.${field}: no variable found in readConfig`);
      const role = templates.resolve(stack, resource.Properties.Role).refs.find((r) => r.type === 'AWS::IAM::Role');
      if (rule.by === 'cdk' && rule.whereRoleMay && !(role && roleMayAtAll(templates, role, rule.whereRoleMay)))
        continue;
      for (const v of vars) {
        if (!(v in env)) {
          if (rule.by === 'cdk') problems.push(`${v} (config.${field}) not set`);
          continue;
        }
        const value = templates.resolve(stack, env[v]);
        if (!rule.shape.ok(value.text)) problems.push(`${v}=${value.text}: not ${rule.shape.says}`);
        if (rule.by !== 'cdk' || !rule.names) continue;
        const named = value.refs.find((r) => r.type === rule.names!.type);
        if (!named) {
          problems.push(`${v} names no ${rule.names.type} of the stacks`);
          continue;
        }
        const read = rule.names.read;
        if (!read) continue;
        if (!role) problems.push(`${v}: the function's role is no AWS::IAM::Role of the stacks`);
        else if (!roleMay(templates, role, read, value.text))
          problems.push(`${v}: role ${role.stack}/${role.id} may not ${read} on ${value.text}`);
      }
    }
    const set = fields.flatMap((f) => variables.get(f) ?? []).filter((v) => v in env);
    return {
      fn: `${stack}/${fn.node.id}`,
      ok: problems.length === 0,
      detail: problems.length
        ? `${fn.handlerModule}: ${problems.join('; ')}`
        : `${fn.handlerModule}: reads ${fields.length} settings, ${set.length} set by CDK (${set.join(', ')})`,
    };
  });
}
