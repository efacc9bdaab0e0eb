import { QueryCommand, ScanCommand } from '@aws-sdk/lib-dynamodb';
import fc from 'fast-check';
import { expect } from 'vitest';
import { documentClient, tableName } from '../../../functions/store/client.ts';
import type { Answer, client } from '../../support/http.ts';

type Api = ReturnType<typeof client>;

/**
 * Request bodies for property-based fuzzing: a valid body from the builders, mutated (a value replaced by garbage, a
 * field dropped, a strange key added) or replaced by garbage as a whole. Bodies are sent as raw JSON text so that
 * keys like `__proto__` reach the server as keys.
 */

/** Stands for `__proto__` while a body is a JavaScript object; replaced in the JSON text. */
const PROTO = '__fuzz_proto__';

const nested = (depth: number, leaf: unknown): unknown => {
  let v = leaf;
  for (let i = 0; i < depth; i++) v = i % 2 ? [v] : { a: v };
  return v;
};

/** Values no field wants: wrong types, nulls, extreme numbers, odd strings, deep and big structures. */
export const garbage: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 3, arbitrary: fc.constant(null) },
  { weight: 2, arbitrary: fc.boolean() },
  { weight: 2, arbitrary: fc.integer() },
  { weight: 2, arbitrary: fc.double() },
  { weight: 3, arbitrary: fc.constantFrom(0, -1, 1e308, -1e308, 2 ** 53 + 2, 1e-200, 5e-324, 1e125, 1e126, 0.1, -0) },
  { weight: 3, arbitrary: fc.string() },
  { weight: 2, arbitrary: fc.string({ unit: 'grapheme', maxLength: 40 }) },
  { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 20 }) },
  {
    weight: 3,
    arbitrary: fc.constantFrom(
      '',
      ' ',
      '\u0000',
      '\ud800',
      '😀'.repeat(100),
      'x'.repeat(10_000),
      '2017-13-45',
      '2099-01-01T00:00:00+02:00',
      'NaN',
      'UAH',
      'draft',
      'active',
      'pending',
    ),
  },
  // Past DynamoDB's item size (400 KB) and nesting (32 levels) limits.
  { weight: 1, arbitrary: fc.constant('x'.repeat(450_000)) },
  { weight: 2, arbitrary: fc.integer({ min: 1, max: 120 }).map((d) => nested(d, 'deep')) },
  { weight: 3, arbitrary: fc.array(fc.jsonValue({ maxDepth: 2 }), { maxLength: 5 }) },
  { weight: 3, arbitrary: fc.jsonValue({ maxDepth: 3 }) },
  { weight: 1, arbitrary: fc.constant(Array.from({ length: 2000 }, (_, i) => i)) },
  {
    weight: 2,
    arbitrary: fc.dictionary(
      fc.constantFrom(PROTO, 'constructor', 'prototype', '', 'ключ', '$ref', 'toString', 'valueOf', 'id'),
      fc.jsonValue({ maxDepth: 2 }),
      { maxKeys: 3 },
    ),
  },
);

type Path = (string | number)[];

function paths(value: unknown, at: Path = []): Path[] {
  if (Array.isArray(value)) return value.flatMap((v, i) => [[...at, i], ...paths(v, [...at, i])]);
  if (value && typeof value === 'object')
    return Object.entries(value).flatMap(([k, v]) => [[...at, k], ...paths(v, [...at, k])]);
  return [];
}

const clone = <T>(v: T): T => structuredClone(v);

function setAt(root: any, path: Path, value: unknown): any {
  const out = clone(root);
  let o = out;
  for (const k of path.slice(0, -1)) o = o[k];
  o[path.at(-1)!] = value;
  return out;
}

function dropAt(root: any, path: Path): any {
  const out = clone(root);
  let o = out;
  for (const k of path.slice(0, -1)) o = o[k];
  if (Array.isArray(o)) o.splice(Number(path.at(-1)), 1);
  else delete o[path.at(-1)!];
  return out;
}

/** A body: the valid one, mutated 1–3 times, or garbage instead of an object. */
export function mutated(valid: () => Record<string, unknown>): fc.Arbitrary<unknown> {
  const edit = fc.tuple(
    fc.constantFrom('set', 'set', 'drop', 'add'),
    fc.nat(),
    garbage,
    fc.constantFrom(PROTO, 'constructor', 'unknownField', 'status', 'id', 'owner', 'ключ'),
  );
  return fc.oneof(
    { weight: 1, arbitrary: fc.constant(null).map(() => valid()) },
    {
      weight: 6,
      arbitrary: fc.array(edit, { minLength: 1, maxLength: 3 }).map((edits) => {
        let body: any = valid();
        for (const [kind, n, value, key] of edits) {
          const all = paths(body);
          const containers = [
            [],
            ...all.filter((p) => {
              const v = p.reduce((o: any, k) => o?.[k], body);
              return v && typeof v === 'object' && !Array.isArray(v);
            }),
          ];
          if (kind === 'add' || !all.length) body = setAt(body, [...containers[n % containers.length], key], value);
          else if (kind === 'set') body = setAt(body, all[n % all.length], value);
          else body = dropAt(body, all[n % all.length]);
        }
        return body;
      }),
    },
    { weight: 1, arbitrary: garbage },
  );
}

/** The JSON text of a request: `{data: body}`, `__proto__` keys included. */
export const requestText = (body: unknown) => JSON.stringify({ data: body }).replaceAll(`"${PROTO}"`, '"__proto__"');

/** Checks the shape of an answer: 2xx, or 4xx in the error envelope; never a 5xx. */
export function expectNoServerError(res: Answer, what: string) {
  expect(res.status, `${what}: ${JSON.stringify(res.body)?.slice(0, 500)}`).toBeLessThan(500);
  expect(res.status, what).toBeGreaterThanOrEqual(200);
  if (res.status >= 400) {
    expect(res.body?.status, what).toBe('error');
    expect(res.body.errors.length, what).toBeGreaterThan(0);
    for (const e of res.body.errors) {
      expect(Object.keys(e).sort(), what).toEqual(['description', 'location', 'name']);
      expect(['body', 'url', 'header', 'querystring'], what).toContain(e.location);
    }
  }
}

/** Every item of an aggregate's partition (`LOT#<id>`), as stored. */
export async function partition(pk: string): Promise<string> {
  const items: unknown[] = [];
  let ExclusiveStartKey: Record<string, unknown> | undefined;
  do {
    const page = await documentClient().send(
      new QueryCommand({
        TableName: tableName(),
        KeyConditionExpression: 'PK = :pk',
        ExpressionAttributeValues: { ':pk': pk },
        ConsistentRead: true,
        ExclusiveStartKey,
      }),
    );
    items.push(...(page.Items ?? []));
    ExclusiveStartKey = page.LastEvaluatedKey;
  } while (ExclusiveStartKey);
  return JSON.stringify(items);
}

/** Every item of the test table (test-only: the service never scans). */
export async function scanTable(): Promise<Record<string, any>[]> {
  const items: Record<string, any>[] = [];
  let ExclusiveStartKey: Record<string, unknown> | undefined;
  do {
    const page = await documentClient().send(
      new ScanCommand({ TableName: tableName(), ConsistentRead: true, ExclusiveStartKey }),
    );
    items.push(...(page.Items ?? []));
    ExclusiveStartKey = page.LastEvaluatedKey;
  } while (ExclusiveStartKey);
  return items;
}

/** How many items the table holds. */
export async function itemCount(): Promise<number> {
  let count = 0;
  let ExclusiveStartKey: Record<string, unknown> | undefined;
  do {
    const page = await documentClient().send(
      new ScanCommand({ TableName: tableName(), Select: 'COUNT', ConsistentRead: true, ExclusiveStartKey }),
    );
    count += page.Count ?? 0;
    ExclusiveStartKey = page.LastEvaluatedKey;
  } while (ExclusiveStartKey);
  return count;
}

export interface Target {
  method: 'POST' | 'PATCH' | 'PUT';
  path: string;
  as?: string;
  token?: string;
  /** The partition a refusal must leave as it was; without it, the number of items in the table. */
  pk?: string;
}

/** Runs `numRuns` bodies against one endpoint: no 5xx, envelope on 4xx, nothing stored by a 4xx. */
export async function fuzzEndpoint(api: Api, target: () => Target, body: fc.Arbitrary<unknown>, numRuns = 100) {
  await fc.assert(
    fc.asyncProperty(body, async (data) => {
      const t = target();
      const before = t.pk ? await partition(t.pk) : await itemCount();
      const res = await api.call(t.method, t.path, undefined, {
        as: t.as ?? 'broker',
        token: t.token,
        raw: requestText(data),
      });
      const what = `${t.method} ${t.path} ${requestText(data).slice(0, 300)}`;
      expectNoServerError(res, what);
      if (res.status >= 400)
        expect(t.pk ? await partition(t.pk) : await itemCount(), `${what}: a refusal stored nothing`).toEqual(before);
    }),
    { ...fuzzParameters(numRuns), endOnFailure: true },
  );
}

/**
 * fast-check parameters. `npm test` is reproducible: one fixed seed, so CI fails only when the code changed. `npm run
 * fuzz` explores: `FUZZ_SEED=random` draws a new seed each run (printed with any counterexample, to replay with
 * `FUZZ_SEED=<seed> FUZZ_PATH=<path>`), and `FUZZ_SCALE` multiplies the number of runs.
 */
const FUZZ_SCALE = Number(process.env.FUZZ_SCALE ?? 1);

/** A test's time limit, scaled with its number of runs. */
export const fuzzTimeout = (ms: number) => ms * FUZZ_SCALE;

export function fuzzParameters(numRuns: number): fc.Parameters<unknown> {
  const seed = process.env.FUZZ_SEED ?? '20261122';
  return {
    numRuns: Math.round(numRuns * FUZZ_SCALE),
    ...(seed !== 'random' && { seed: Number(seed), path: process.env.FUZZ_PATH }),
  };
}
