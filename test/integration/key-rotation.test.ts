import { execFile } from 'node:child_process';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { KEY_MEMO_MS } from '../../functions/auth/authorizer.ts';
import { aBasicAsset } from '../support/assets.ts';
import { useService } from '../support/service.ts';

/**
 * Key rotation without downtime: a principal (a name, the owner of what it creates) has any number of keys.
 * `keys rotate` issues one more; the old one works until `keys revoke` of its id, and stops within the authorizer's
 * memo of a key (KEY_MEMO_MS) after that. The CLI runs as an operator runs it, the keys go over real HTTP.
 */
const ROOT = resolve(import.meta.dirname, '../..');
const service = useService();

interface Run {
  code: number;
  out: string;
  err: string;
}
function keys(args: string[], env: Record<string, string | undefined> = {}): Promise<Run> {
  const base: NodeJS.ProcessEnv = { ...process.env, ...env };
  for (const [k, v] of Object.entries(base)) if (v === undefined) delete base[k];
  return new Promise((done) => {
    execFile(
      join(ROOT, 'node_modules/.bin/tsx'),
      [join(ROOT, 'bin/keys.ts'), ...args],
      { cwd: ROOT, env: base, timeout: 60_000 },
      (error, out, err) => done({ code: error ? Number((error as { code?: number }).code ?? 1) : 0, out, err }),
    );
  });
}
const issued = (run: Run) => /: ([0-9a-f]{48})\n/.exec(run.out)?.[1] ?? '';

const as = (key: string) => ({ authorization: `Basic ${Buffer.from(`${key}:`).toString('base64')}` });
const createAsset = (key: string) =>
  fetch(`${service.url}/api/0.1/assets`, {
    method: 'POST',
    headers: { ...as(key), 'content-type': 'application/json' },
    body: JSON.stringify({ data: aBasicAsset() }),
  });

describe('npm run keys -- rotate', () => {
  it('issues a second key of the principal; both work, the old one stops within the memo of its revocation', async () => {
    const added = await keys(['add', 'rotating-broker', 'broker', '1234']);
    expect(added.code, added.err).toBe(0);
    const oldKey = issued(added);
    const created = await createAsset(oldKey);
    expect(created.status).toBe(201);
    const asset = (await created.json()) as { data: { id: string; owner: string }; access: { token: string } };
    expect(asset.data.owner).toBe('rotating-broker');

    const rotated = await keys(['rotate', 'rotating-broker']);
    expect(rotated.code, rotated.err).toBe(0);
    expect(rotated.out).toMatch(
      /^new key for rotating-broker \(broker, levels 1234\) in local table .*: [0-9a-f]{48}$/m,
    );
    const newKey = issued(rotated);
    expect(newKey).not.toBe(oldKey);
    const oldId = /ids ([0-9a-f]{12})\)/.exec(rotated.out)?.[1];
    expect(oldId).toBeDefined();

    // The new key is the same principal: it edits what the old one created; the old one still works.
    const patched = await fetch(`${service.url}/api/0.1/assets/${asset.data.id}?acc_token=${asset.access.token}`, {
      method: 'PATCH',
      headers: { ...as(newKey), 'content-type': 'application/json' },
      body: JSON.stringify({ data: { title: 'Після ротації ключа' } }),
    });
    expect(patched.status, await patched.clone().text()).toBe(200);
    expect((await createAsset(oldKey)).status).toBe(201);

    const list = await keys(['list']);
    expect(list.out.split('\n').filter((l) => l.includes('\trotating-broker\t'))).toHaveLength(2);
    const byName = await keys(['revoke', 'rotating-broker']);
    expect(byName.code).toBe(1);
    expect(byName.err).toMatch(/2 keys match rotating-broker \(ids .*\): revoke one by its id/);

    const revoked = await keys(['revoke', oldId!]);
    expect(revoked.code, revoked.err).toBe(0);
    const revokedAt = Date.now();
    let stoppedAfter: number | undefined;
    while (Date.now() - revokedAt < KEY_MEMO_MS + 5_000) {
      const sentAt = Date.now(); // the request's start: a slow answer under load does not count against the memo
      const answer = await createAsset(oldKey);
      if (answer.status === 401) {
        stoppedAfter = sentAt - revokedAt;
        break;
      }
      expect(answer.status).toBe(201);
      await new Promise((r) => setTimeout(r, 250));
    }
    expect(stoppedAfter, 'the revoked key still works').toBeDefined();
    expect(stoppedAfter!).toBeLessThanOrEqual(KEY_MEMO_MS + 1_000);
    expect((await createAsset(newKey)).status).toBe(201);
  }, 120_000);

  it('refuses to rotate a name without a key, and to add a name that has one', async () => {
    const [none, twice] = await Promise.all([
      keys(['rotate', 'nobody-here']),
      keys(['add', 'broker', 'broker']), // the dev key
    ]);
    expect(none).toMatchObject({ code: 1, err: expect.stringMatching(/no key named nobody-here .*`add` it first/) });
    expect(twice).toMatchObject({ code: 1, err: expect.stringMatching(/`rotate broker` gives it one more key/) });
  }, 60_000);
});

describe('npm run keys -- --table / --stack', () => {
  it('works on the table --table names; --stack without AWS credentials is one line; wrong options are exit 2', async () => {
    const [byTable, noValue, both, stack] = await Promise.all([
      keys(['list', '--table', process.env.TABLE_NAME!], { TABLE_NAME: undefined }),
      keys(['list', '--stack']),
      keys(['list', '--table', 'a', '--stack', 'b']),
      keys(['--stack', 'Agora-dev-Data', 'list'], {
        TABLE_NAME: undefined,
        DYNAMODB_ENDPOINT: undefined,
        AWS_PROFILE: undefined,
        AWS_REGION: undefined,
        AWS_DEFAULT_REGION: undefined,
        AWS_ACCESS_KEY_ID: undefined,
        AWS_SECRET_ACCESS_KEY: undefined,
        AWS_CONFIG_FILE: join(ROOT, 'no-such-aws-config'),
        AWS_SHARED_CREDENTIALS_FILE: join(ROOT, 'no-such-aws-credentials'),
      }),
    ]);
    expect(byTable.code, byTable.err).toBe(0);
    expect(byTable.out).toMatch(/\tbroker\tbroker\t1234\t/);
    expect(noValue).toMatchObject({ code: 2, err: expect.stringMatching(/--stack needs a value/) });
    expect(both).toMatchObject({ code: 2, err: expect.stringMatching(/either --table or --stack/) });
    expect(stack.code).toBe(1);
    expect(stack.err).toMatch(/^stack Agora-dev-Data: no AWS credentials or region/);
    expect(stack.err).not.toMatch(/\n\s+at /);
  }, 60_000);
});
