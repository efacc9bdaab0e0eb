import { runSimulation } from '@cloud-copilot/iam-simulate';
import { UNUSED_GRANTS_METADATA } from '../../../lib/iam.ts';
import { synthesizeAsCli } from '../synth.ts';
import type { RecordedCall } from './calls.ts';
import { Environment, TEST_ENVIRONMENT, type Templates } from './environment.ts';

/**
 * The IAM check: each recorded call (calls.ts) evaluated against its Lambda's role in the synthesized templates by a
 * real policy evaluator (@cloud-copilot/iam-simulate), never a matcher of our own; and every grant of those roles no
 * recorded call used, unless its statement's policy carries a justification (lib/iam.ts `justifyGrant`).
 */
export interface CallVerdict {
  call: RecordedCall;
  arn: string;
  allowed: boolean;
  /** Why not, when not: the evaluator's result or its validation errors. */
  why?: string;
}
export interface Grant {
  role: string;
  action: string;
  resource: string;
  /** The reason the stack gives beside the statement for keeping a grant no call uses. */
  justified?: string;
}
export interface FunctionReport {
  caller: string;
  /** `<stack>/<logical id>` of the Lambda. */
  fn: string;
  role: string;
  verdicts: CallVerdict[];
  /** Grants of its role that no recorded call of any function with that role used. */
  unused: Grant[];
  /** Every action its role grants (a pattern as the statement writes it). */
  actions: string[];
}

interface Statement {
  Sid?: string;
  Effect: string;
  Action: string | string[];
  Resource: string | string[];
  Condition?: Record<string, unknown>;
}
interface Role {
  stack: string;
  id: string;
  arn: string;
  statements: { key: string; statement: Statement }[];
  /** lib/iam.ts `justifyGrant`: the role's grants kept without a call, each with its reason. */
  justified: { actions: string[]; why: string }[];
}

const list = <T>(value: T | T[] | undefined): T[] =>
  value === undefined ? [] : Array.isArray(value) ? value : [value];

/** The app as `cdk synth` builds it (cdk.json's context), its templates by stack name. */
export function synthesizedTemplates(): Templates {
  const { app } = synthesizeAsCli({ account: TEST_ENVIRONMENT.account, region: TEST_ENVIRONMENT.region });
  return Object.fromEntries(app.synth().stacks.map((s) => [s.stackName, s.template as Templates[string]]));
}

export class IamModel {
  readonly env: Environment;
  private readonly roles = new Map<string, Role>();
  constructor(templates: Templates) {
    this.env = new Environment(templates);
    for (const [stack, template] of Object.entries(templates))
      for (const [id, resource] of Object.entries(template.Resources))
        if (resource.Type === 'AWS::IAM::Role') {
          const arn = this.env.resolve(stack, { 'Fn::GetAtt': [id, 'Arn'] });
          const inline = list(resource.Properties?.Policies).flatMap((p: any, i: number) =>
            list<Statement>(this.env.resolve(stack, p.PolicyDocument).Statement).map((statement, j) => ({
              key: `${id}.inline${i}.${j}`,
              statement,
            })),
          );
          const justified = resource.Metadata?.[UNUSED_GRANTS_METADATA] ?? [];
          this.roles.set(arn, { stack, id, arn, statements: inline, justified });
        }
    // Policies name their roles (`Roles: [Ref]`), possibly across stacks (an imported role name).
    for (const [stack, template] of Object.entries(templates))
      for (const [id, resource] of Object.entries(template.Resources)) {
        if (resource.Type !== 'AWS::IAM::Policy' && resource.Type !== 'AWS::IAM::ManagedPolicy') continue;
        const names = list<string>(this.env.resolve(stack, resource.Properties.Roles));
        const statements = list<Statement>(this.env.resolve(stack, resource.Properties.PolicyDocument).Statement);
        for (const role of this.roles.values())
          if (names.includes(role.arn.split('/').pop()!))
            role.statements.push(...statements.map((statement, j) => ({ key: `${id}.${j}`, statement })));
      }
  }

  /** The Lambda AWS runs for a recorded caller (routes by their API route's integration, the others by their id). */
  functionOf(caller: string): { stack: string; id: string } | undefined {
    const [kind, name = ''] = caller.split(/:(.*)/s);
    const cap = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);
    if (kind === 'authorizer') return this.env.find('AWS::Lambda::Function', 'Authorizer');
    if (kind === 'webhook-delivery') return this.env.find('AWS::Lambda::Function', 'WebhookDelivery');
    if (kind === 'migrate') return this.env.find('AWS::Lambda::Function', 'Migrate');
    if (kind === 'bot') return this.env.find('AWS::Lambda::Function', `${cap(name)}Bot`);
    if (kind === 'room') return this.env.find('AWS::Lambda::Function', `Room${name}`);
    if (kind !== 'route') return undefined;
    const room = this.env.find('AWS::ApiGatewayV2::Api', 'Room');
    for (const [stack, template] of Object.entries(this.env.templates))
      for (const resource of Object.values(template.Resources)) {
        if (resource.Type !== 'AWS::ApiGatewayV2::Route' || resource.Properties.RouteKey !== name) continue;
        if (room && stack === room.stack) continue; // the room's WebSocket routes are `room:` callers
        const integration = JSON.stringify(resource.Properties.Target).match(/"Ref":"([^"]+)"/)?.[1];
        const uri = integration && template.Resources[integration]?.Properties?.IntegrationUri;
        const fn = uri?.['Fn::GetAtt']?.[0];
        if (fn) return { stack, id: fn };
      }
    // The HTTP API's `$default` route is its default integration's (the 404 function).
    return name === '$default' ? this.env.find('AWS::Lambda::Function', 'HttpNotFound') : undefined;
  }

  roleOf(fn: { stack: string; id: string }): Role | undefined {
    const resource = this.env.templates[fn.stack].Resources[fn.id];
    return this.roles.get(this.env.resolve(fn.stack, resource.Properties.Role));
  }

  /** Every grant of a role: its Allow statements' action and resource patterns (AWS managed policies aside). */
  grants(role: Role): (Grant & { key: string })[] {
    return role.statements
      .filter(({ statement }) => statement.Effect === 'Allow')
      .flatMap(({ key, statement }) =>
        list(statement.Action).flatMap((action) =>
          list(statement.Resource).map((resource) => ({
            key,
            role: `${role.stack}/${role.id}`,
            action,
            resource,
            justified: role.justified.find((j) => j.actions.includes(action))?.why,
          })),
        ),
      );
  }

  /** Evaluates every call and finds the unused grants, per function. */
  async check(calls: RecordedCall[]): Promise<{ reports: FunctionReport[]; unknown: RecordedCall[] }> {
    const byCaller = new Map<string, RecordedCall[]>();
    for (const call of calls) byCaller.set(call.caller, [...(byCaller.get(call.caller) ?? []), call]);
    const used = new Set<string>(); // `<role arn> <statement key> <action pattern> <resource pattern>`
    const reports: FunctionReport[] = [];
    const unknown: RecordedCall[] = [];
    for (const [caller, made] of byCaller) {
      const fn = this.functionOf(caller);
      const role = fn && this.roleOf(fn);
      if (!fn || !role) {
        unknown.push(...made);
        continue;
      }
      const statements = role.statements.map(({ key, statement }) => ({ ...statement, Sid: key.replace(/\W/g, '') }));
      const keyOf = new Map(role.statements.map(({ key }) => [key.replace(/\W/g, ''), key]));
      const verdicts: CallVerdict[] = [];
      for (const call of made) {
        const arn = this.env.arnOf(call.resource);
        const answer = await runSimulation(
          {
            request: {
              action: call.action,
              principal: `arn:aws:sts::${TEST_ENVIRONMENT.account}:assumed-role/${role.arn.split('/').pop()}/${fn.id}`,
              resource: { resource: arn, accountId: TEST_ENVIRONMENT.account },
              contextVariables: call.context ?? {},
            },
            identityPolicies: [{ name: `${role.id}`, policy: { Version: '2012-10-17', Statement: statements } }],
            serviceControlPolicies: [],
            resourceControlPolicies: [],
          } as Parameters<typeof runSimulation>[0],
          {},
        );
        if (answer.resultType === 'error') {
          verdicts.push({ call, arn, allowed: false, why: JSON.stringify(answer.errors) });
          continue;
        }
        const allowed = answer.overallResult === 'Allowed';
        verdicts.push({ call, arn, allowed, ...(!allowed && { why: answer.overallResult }) });
        if (answer.resultType !== 'single') continue;
        for (const allow of answer.result.analysis?.identityAnalysis?.allowStatements ?? []) {
          const explain = allow.explain as any;
          const key = keyOf.get(explain.identifier);
          for (const a of list<any>(explain.actions))
            if (a.matches)
              for (const r of list<any>(explain.resources))
                if (r.matches) used.add(`${role.arn} ${key} ${a.action} ${r.resource}`);
        }
      }
      reports.push({ caller, fn: `${fn.stack}/${fn.id}`, role: role.arn, verdicts, unused: [], actions: [] });
    }
    // The functions no recorded call reached hold grants too: listed with none of theirs used.
    const reached = new Set(reports.map((r) => r.fn));
    for (const [stack, template] of Object.entries(this.env.templates))
      for (const [id, resource] of Object.entries(template.Resources)) {
        if (resource.Type !== 'AWS::Lambda::Function' || reached.has(`${stack}/${id}`)) continue;
        const role = this.roleOf({ stack, id });
        if (role)
          reports.push({
            caller: '(no recorded call)',
            fn: `${stack}/${id}`,
            role: role.arn,
            verdicts: [],
            unused: [],
            actions: [],
          });
      }
    for (const report of reports) {
      const role = this.roles.get(report.role)!;
      report.actions = [...new Set(this.grants(role).map((g) => g.action))];
      report.unused = this.grants(role)
        .filter((g) => !used.has(`${role.arn} ${g.key} ${g.action} ${g.resource}`))
        .map(({ key: _, ...grant }) => grant);
    }
    return { reports: reports.sort((a, b) => a.fn.localeCompare(b.fn)), unknown };
  }
}
