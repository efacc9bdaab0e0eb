import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Template } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import { synthesizeAsCli } from '../support/synth.ts';

/**
 * docs/operations.md "Teardown" against the templates: what the data stack retains (and nothing else does), the
 * table's deletion protection, and which stacks are termination-protected (every one in prod, none in dev), each
 * lifted by the prod steps.
 */
const GUIDE = readFileSync(join(import.meta.dirname, '../../docs/operations.md'), 'utf8');
const TEARDOWN = GUIDE.slice(GUIDE.indexOf('## Teardown'), GUIDE.indexOf('\n## ', GUIDE.indexOf('## Teardown') + 5));
const PROD = TEARDOWN.slice(TEARDOWN.indexOf('**prod**'));

type Built = ReturnType<typeof synthesizeAsCli>;
const stacksOf = (b: Built) => [b.data, b.api, b.room, b.bots, b.ops, ...b.routeStacks];
let prod: Built;
let dev: Built;
beforeAll(() => {
  prod = synthesizeAsCli({ stage: 'prod', account: '123456789012', region: 'eu-central-1' });
  dev = synthesizeAsCli({ stage: 'dev' });
});

/** Every resource whose DeletionPolicy keeps it, by stack. */
const retained = (b: Built) =>
  stacksOf(b).flatMap((s) =>
    Object.entries(Template.fromStack(s).toJSON().Resources as Record<string, any>)
      .filter(
        ([, r]) => (r.DeletionPolicy ?? 'Delete') !== 'Delete' || (r.UpdateReplacePolicy ?? 'Delete') !== 'Delete',
      )
      .map(([id, r]) => ({ stack: s.stackName, id, type: r.Type as string, policy: r.DeletionPolicy, resource: r })),
  );

describe('docs/operations.md Teardown', () => {
  it('lists exactly what the templates retain: all in the data stack, one row each', () => {
    const kept = retained(prod);
    expect(new Set(kept.map((k) => k.stack))).toEqual(new Set(['Agora-prod-Data']));
    for (const k of kept) expect(k.policy, k.id).toBe('Retain');
    const rows = [...TEARDOWN.matchAll(/^\| [^|]+ \| `(AWS::[A-Za-z0-9:]+)` \|/gm)].map((m) => m[1]);
    expect(rows.sort()).toEqual(kept.map((k) => k.type).sort());
    // The same in dev: retention does not depend on the stage.
    expect(
      retained(dev)
        .map((k) => k.type)
        .sort(),
    ).toEqual(rows.sort());
  });

  it('lifts the table deletion protection before deleting it, as the template sets it', () => {
    const [table] = retained(prod).filter((k) => k.type === 'AWS::DynamoDB::GlobalTable');
    expect(table!.resource.Properties.Replicas[0].DeletionProtectionEnabled).toBe(true);
    const off = PROD.indexOf('--no-deletion-protection-enabled');
    expect(off).toBeGreaterThan(-1);
    expect(PROD.indexOf('delete-table')).toBeGreaterThan(off);
  });

  it('deletes each kind it retains, after the stacks are destroyed', () => {
    const destroy = PROD.indexOf('cdk destroy --all');
    for (const command of ['delete-table', 's3 rb', 'delete-secret', 'delete-backup'])
      expect(PROD.indexOf(command), command).toBeGreaterThan(destroy);
  });

  it('lifts the termination protection of every prod stack (and dev has none to lift)', () => {
    for (const s of stacksOf(prod)) expect(s.terminationProtection, s.stackName).toBe(true);
    for (const s of stacksOf(dev)) expect(s.terminationProtection, s.stackName).toBe(false);
    const loop =
      /for stack in ([^;]+); do\s+aws cloudformation update-termination-protection --no-enable-termination-protection --stack-name \$stack/.exec(
        PROD,
      );
    expect(loop, 'the loop of prod step 4').not.toBeNull();
    const named = loop![1]!
      .trim()
      .split(/\s+/)
      .map((n) => n.replace('$STAGE', 'prod'));
    expect(named.sort()).toEqual(
      stacksOf(prod)
        .map((s) => s.stackName)
        .sort(),
    );
    expect(PROD.indexOf('update-termination-protection')).toBeLessThan(PROD.indexOf('cdk destroy --all'));
  });

  it('numbers its steps 1, 2, 3... for dev and for prod', () => {
    for (const part of [TEARDOWN.slice(TEARDOWN.indexOf('**dev**'), TEARDOWN.indexOf('**prod**')), PROD]) {
      const steps = [...part.matchAll(/^(\d+)\. /gm)].map((m) => Number(m[1]));
      expect(steps).toEqual(steps.map((_, i) => i + 1));
      expect(steps.length).toBeGreaterThan(3);
    }
  });
});

describe('docs/operations.md First deploy', () => {
  const FIRST = GUIDE.slice(
    GUIDE.indexOf('## First deploy'),
    GUIDE.indexOf('\n## ', GUIDE.indexOf('## First deploy') + 5),
  );

  it('numbers its steps from 1, and loads the organization directory among them, from a file the repository has', () => {
    const steps = [...FIRST.matchAll(/^(\d+)\. /gm)].map((m) => Number(m[1]));
    expect(steps).toEqual(steps.map((_, i) => i + 1));
    const load = /npm run organizations -- add (\S+) --stack (\S+)`/.exec(FIRST);
    expect(load, 'the organizations step').not.toBeNull();
    const organizations = JSON.parse(readFileSync(join(import.meta.dirname, '../..', load![1]!), 'utf8'));
    expect(organizations.length).toBeGreaterThan(0);
    // The stack it names has the TableName output the CLI reads.
    const stack = stacksOf(prod).find((s) => s.stackName === load![2]!.replace('$STAGE', 'prod'));
    expect(stack, load![2]).toBeDefined();
    expect(Object.keys(Template.fromStack(stack!).toJSON().Outputs)).toContain('TableName');
    // In order: deploy, keys, organizations, a first lot.
    const at = (text: string) => FIRST.indexOf(text);
    expect(at('cdk bootstrap')).toBeLessThan(at('npm run deploy'));
    expect(at('npm run deploy')).toBeLessThan(at('npm run keys -- add'));
    expect(at('npm run keys -- add')).toBeLessThan(at('npm run organizations -- add'));
    expect(at('npm run organizations -- add')).toBeLessThan(at('npm run smoke -- --url $API --key'));
    expect(at('ApiUrl')).toBeGreaterThan(-1);
    // The smoke test after a deploy is a script of package.json, and no step runs a route AWS does not serve
    // (`/_local/*` answers 404 there): the sale with a moved clock stays the local walkthrough.
    expect(JSON.parse(readFileSync(join(import.meta.dirname, '../../package.json'), 'utf8')).scripts.smoke).toBe(
      'tsx bin/smoke.ts',
    );
    expect(FIRST, 'the sale walkthrough pointed at AWS').not.toContain('AGORA_URL=$API');
  });
});
