import { readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tsFiles } from '../../support/source-files.ts';

/**
 * Issue 25: the domain types what it has checked. A body or a stored object whose fields are not proven yet is a
 * `JsonRecord` (unknown-valued) and is narrowed, or a generated type guard (`CheckOf<T>`) proves it; the any-valued
 * `JsonObject` stays outside the domain (the HTTP kit, the store), each new use in the domain a decision to explain.
 */
const ROOT = resolve(import.meta.dirname, '../../..');
const DOMAIN = join(ROOT, 'functions/domain');

/** The domain's own files (its generated validators aside). */
const files = (dir: string) => tsFiles(dir, ['generated']);

describe('types where the data is checked', () => {
  it('the domain uses the any-valued JsonObject nowhere but its own definition', () => {
    const uses = files(DOMAIN).flatMap((file) =>
      readFileSync(file, 'utf8')
        .split('\n')
        .flatMap((line, i) =>
          /\bJsonObject\b/.test(line) ? [`${relative(ROOT, file)}:${i + 1}: ${line.trim()}`] : [],
        ),
    );
    expect(uses.filter((use) => !use.startsWith('functions/domain/kernel/objects.ts:'))).toEqual([]);
  });

  it('nor do the HTTP kit and the runtime: bodies and stored records are JsonRecord there too', () => {
    const uses = ['http-kit', 'runtime'].flatMap((dir) =>
      files(join(ROOT, 'functions', dir)).filter((file) => /\bJsonObject\b/.test(readFileSync(file, 'utf8'))),
    );
    expect(uses.map((file) => relative(ROOT, file))).toEqual([]);
  });

  it('every body check is a type guard over its generated request type', () => {
    const untyped = files(DOMAIN).flatMap((file) =>
      /:\s*Check\s*=\s*\(data\)\s*=>\s*checkWith\(/.test(readFileSync(file, 'utf8')) ? [relative(ROOT, file)] : [],
    );
    expect(untyped).toEqual([]);
  });
});
