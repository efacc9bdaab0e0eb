import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import { synthesizeAsCli } from '../support/synth.ts';

/**
 * docs/operations.md against the app it operates: every stack, output, construct and secret its commands name exists
 * in the synthesized templates (with cdk.json's context, as `npm run deploy` synthesizes them), what it says of the
 * table, the logs and the migrations' Lambda is what the templates say, and its cost table adds up. A renamed output or
 * stack fails here, not in an operator's terminal.
 */
const ROOT = resolve(import.meta.dirname, '../..');
const guide = readFileSync(join(ROOT, 'docs/operations.md'), 'utf8');
const context = JSON.parse(readFileSync(join(ROOT, 'cdk.json'), 'utf8')).context as Record<string, unknown>;
const stage = String(context.stage);

let stacks: Map<string, Template>;
beforeAll(() => {
  const { app } = synthesizeAsCli();
  stacks = new Map(
    app.node.children.filter((c): c is Stack => Stack.isStack(c)).map((s) => [s.stackName, Template.fromStack(s)]),
  );
});

type Resources = Record<string, { Type: string; Properties?: Record<string, any>; DeletionPolicy?: string }>;
const resources = (stack: string) => (stacks.get(stack)?.toJSON().Resources ?? {}) as Resources;
const outputs = (stack: string) => Object.keys(stacks.get(stack)?.toJSON().Outputs ?? {});
const named = (name: string) => name.replace('$STAGE', stage);
const all = (pattern: RegExp) => [...guide.matchAll(pattern)];

describe('docs/operations.md names what the templates have', () => {
  it('reads the stage from cdk.json as the guide does', () => {
    expect(guide).toContain(`node -p "require('./cdk.json').context.stage"`);
    expect(stage).toMatch(/^[A-Za-z][A-Za-z0-9-]*$/);
  });

  it('names only stacks the app has (--stack-name, --stack)', () => {
    const used = all(/(?:--stack-name|--stack) (Agora-\$STAGE-\w+)/g).map((m) => named(m[1]));
    expect(used.length).toBeGreaterThan(5);
    for (const stack of new Set(used)) expect([...stacks.keys()], stack).toContain(stack);
  });

  it('reads only outputs the named stack has; --stack names a stack with TableName', () => {
    const reads = all(/--stack-name (Agora-\$STAGE-\w+) \\\n\s+--query "Stacks\[0\]\.Outputs\[\?OutputKey=='(\w+)'\]/g);
    expect(reads.map((m) => m[2])).toEqual(expect.arrayContaining(['TableName', 'MigrateFunctionName']));
    for (const [, stack, output] of reads) expect(outputs(named(stack)), `${stack} ${output}`).toContain(output);
    for (const [, stack] of all(/--stack (Agora-\$STAGE-\w+)/g)) expect(outputs(named(stack))).toContain('TableName');
    // The outputs the prose names are somewhere in the app.
    const everyOutput = [...stacks.keys()].flatMap(outputs);
    for (const output of ['ApiUrl', 'TableName', 'AlarmTopicArn', 'MigrateFunctionName'])
      expect(everyOutput, output).toContain(output);
  });

  it('names log groups and secrets by constructs the stacks have', () => {
    const logGroups = all(/--log-group-name-prefix (Agora-\$STAGE-\w+)-(\w+)/g);
    expect(logGroups.length).toBeGreaterThan(0);
    for (const [, stack, construct] of logGroups) {
      const ids = Object.entries(resources(named(stack)))
        .filter(([, r]) => r.Type === 'AWS::Logs::LogGroup')
        .map(([id]) => id);
      expect(
        ids.some((id) => id.startsWith(construct)),
        `${stack} ${construct}`,
      ).toBe(true);
    }
    const data = resources(`Agora-${stage}-Data`);
    const secrets = Object.entries(data).filter(([, r]) => r.Type === 'AWS::SecretsManager::Secret');
    for (const construct of ['DocserviceKey', 'ParticipationKey']) {
      expect(guide).toContain(`| \`${construct}\` |`);
      expect(
        secrets.some(([id]) => id.startsWith(construct)),
        construct,
      ).toBe(true);
    }
    expect(secrets).toHaveLength(2); // "two secrets"
    for (const [, id] of all(/starts_with\(LogicalResourceId, '(\w+)'\)/g))
      expect(
        Object.keys(data).some((logical) => logical.startsWith(id)),
        id,
      ).toBe(true);
  });

  it('says of the table, the logs, the bucket and the migrations what the templates say', () => {
    const data = Object.values(resources(`Agora-${stage}-Data`));
    const table = data.find((r) => r.Type === 'AWS::DynamoDB::GlobalTable')!;
    expect(table.DeletionPolicy).toBe('Retain');
    expect(table.Properties!.Replicas[0]).toMatchObject({
      DeletionProtectionEnabled: true,
      PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true },
    });
    for (const type of ['AWS::S3::Bucket', 'AWS::SecretsManager::Secret'])
      for (const r of data.filter((x) => x.Type === type)) expect(r.DeletionPolicy, type).toBe('Retain');
    expect(guide).toContain('kept 30 days');
    const logGroups = [...stacks.keys()].flatMap((s) =>
      Object.values(resources(s)).filter((r) => r.Type === 'AWS::Logs::LogGroup'),
    );
    for (const group of logGroups) expect(group.Properties!.RetentionInDays).toBe(30);
    const bucket = data.find((r) => r.Type === 'AWS::S3::Bucket')!;
    expect(bucket.Properties!.LifecycleConfiguration.Rules).toContainEqual(
      expect.objectContaining({ ExpirationInDays: 7 }),
    );
    const migrate = Object.entries(resources(`Agora-${stage}-Bots`)).find(
      ([id, r]) => r.Type === 'AWS::Lambda::Function' && id.startsWith('Migrate'),
    );
    expect(migrate?.[1].Properties?.Timeout).toBe(15 * 60);
  });

  it('adds its cost table up: each column of amounts to its total', () => {
    const rows = guide
      .slice(guide.indexOf('## What a month costs'))
      .split('\n')
      .filter((l) => l.startsWith('| ') && l.includes('**$'));
    const amounts = (line: string) =>
      line
        .split('|')
        .slice(3, 5)
        .map((cell) => Number(/\*\*\$([\d,.]+)\*\*/.exec(cell)?.[1].replace(/,/g, '') ?? 0));
    const lines = rows.map(amounts);
    const totals = /\| \*\*a month\*\* \| \| \*\*about \$([\d,]+)\*\* \| \*\*about \$([\d,]+)\*\* \|/.exec(guide);
    expect(totals).not.toBeNull();
    for (const column of [0, 1]) {
      const sum = lines.reduce((s, l) => s + l[column], 0);
      const total = Number(totals![column + 1].replace(/,/g, ''));
      expect(Math.abs(sum - total) / total, `column ${column}: ${sum} vs ${total}`).toBeLessThan(0.01);
    }
  });
});

describe('cdk synth with a wrong context value', () => {
  it('stops with one line naming the parameter, never a stack trace', async () => {
    const run = await new Promise<{ code: number; err: string }>((done) =>
      execFile(
        join(ROOT, 'node_modules/.bin/tsx'),
        [join(ROOT, 'bin/agora.ts')],
        { cwd: ROOT, env: { ...process.env, CDK_CONTEXT_JSON: JSON.stringify({ keyRate: 'abc' }) }, timeout: 60_000 },
        (error, _out, err) => done({ code: error ? Number((error as { code?: number }).code ?? 1) : 0, err }),
      ),
    );
    expect(run.code).toBe(1);
    expect(run.err.trim()).toBe('context keyRate: expected a number >= 0, got "abc"');
  });
});
