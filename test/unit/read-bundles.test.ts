import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Metafile } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildLambdas } from '../../lib/build.ts';
import { roomLambdas } from '../../functions/room/lambdas.ts';
import { routes } from '../../functions/routes.ts';

/**
 * The rule that keeps reads light: a read route's Lambda never bundles what only writes run (the type definitions
 * with their schemas and validators, the land schemas, the working-day calendar, ajv). Reads need of a type only
 * its descriptor (functions/domain/{auctions,assets}/.../catalog.ts). Checked on the very build CDK ships.
 */
const HEAVY: Record<string, RegExp> = {
  'auction type definitions': /^functions\/domain\/auctions\/types\/[^/]+\/definition\.ts$/,
  'auction type schemas': /^functions\/domain\/auctions\/types\/[^/]+\/schema\.ts$/,
  'asset type definitions': /^functions\/domain\/assets\/types\/[^/]+\/definition\.ts$/,
  'the calendar': /^functions\/domain\/calendar\//,
  'the schemas': /^functions\/domain\/schemas\//,
  ajv: /^node_modules\/ajv\//,
};

/** Reads whose answer is made of these very things. */
const NEEDS: Record<string, readonly string[]> = {
  // They serve the land schemas themselves.
  'http/schemas/get-schema': ['the schemas'],
  'http/schemas/list-schemas': ['the schemas'],
  // It serves the calendar (the shipped seed until an admin changes it).
  'http/calendar/get-calendar': ['the calendar'],
};

const READS = [...new Set(routes.filter((r) => r.method === 'GET').map((r) => r.handler))].sort();

let outdir: string;
let meta: Metafile;

beforeAll(async () => {
  outdir = mkdtempSync(join(tmpdir(), 'agora-read-bundles-'));
  meta = (await buildLambdas({ outdir, metafile: true })).metafile!;
}, 120_000);

afterAll(() => rmSync(outdir, { recursive: true, force: true }));

/** The bundle of a handler: its output in the metafile (keys are relative to the working directory). */
function bundleOf(handler: string) {
  const key = Object.keys(meta.outputs).find((k) => k.endsWith(`/${handler}/index.mjs`));
  if (!key) throw new Error(`no bundle for ${handler}`);
  return meta.outputs[key]!;
}

/**
 * Whether a module's own code is in a bundle. esbuild lists a module all of whose code was dropped with a few bytes
 * when its imports are lazily initialised (they are also reached through a dynamic import): one `init_x()` call,
 * minified to about 4 bytes, per import. Those calls are not the module's code.
 */
const INIT_CALL_BYTES = 6;
const bringsCode = (file: string, bytes: number): boolean =>
  bytes > INIT_CALL_BYTES * (meta.inputs[file]?.imports.length ?? 0);

/** How the entry reaches `file` (the first import chain found), to say in a failure where to cut. */
function chainTo(entry: string, file: string, inBundle: Set<string>): string {
  const from = new Map<string, string>([[entry, '']]);
  const queue = [entry];
  while (queue.length) {
    const current = queue.shift()!;
    for (const { path } of meta.inputs[current]?.imports ?? []) {
      if (!inBundle.has(path) || from.has(path)) continue;
      from.set(path, current);
      queue.push(path);
    }
  }
  const chain: string[] = [];
  for (let f: string | undefined = file; f; f = from.get(f) || undefined) chain.unshift(f);
  return chain.join(' -> ');
}

describe('read routes bundle no type definitions, schemas, calendar or ajv', () => {
  it('has read routes to check', () => {
    expect(READS).toContain('http/auctions/get-auction');
    expect(READS).toContain('http/assets/get-asset');
  });

  it.each(READS)('%s', (handler) => {
    const bundle = bundleOf(handler);
    const inBundle = new Set(Object.keys(bundle.inputs));
    const allowed = NEEDS[handler] ?? [];
    const found = Object.entries(bundle.inputs)
      .filter(([file, input]) => bringsCode(file, input.bytesInOutput))
      .flatMap(([file]) =>
        Object.entries(HEAVY)
          .filter(([what, pattern]) => !allowed.includes(what) && pattern.test(file))
          .map(([what]) => `${what}: ${chainTo(bundle.entryPoint!, file, inBundle)}`),
      );
    expect(found).toEqual([]);
  });
});

describe("the room's Lambdas bundle no ajv: their message validators are compiled ahead of time", () => {
  it.each(roomLambdas.map((l) => l.handler))('%s', (handler) => {
    const bundle = bundleOf(handler);
    const inBundle = new Set(Object.keys(bundle.inputs));
    const found = Object.entries(bundle.inputs)
      .filter(([file, input]) => HEAVY.ajv.test(file) && bringsCode(file, input.bytesInOutput))
      .map(([file]) => chainTo(bundle.entryPoint!, file, inBundle));
    expect(found).toEqual([]);
  });
});
