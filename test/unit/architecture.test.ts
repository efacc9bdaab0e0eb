import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve, dirname } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../..');

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return files(path);
    return path.endsWith('.ts') ? [path] : [];
  });
}

/** Static imports of a file, resolved to paths relative to the project (bare packages kept as they are). */
function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  return [...text.matchAll(/^\s*(?:import|export)\s[^'"]*?from\s+['"]([^'"]+)['"]/gm)].map(([, spec]) => {
    if (spec.startsWith('#domain/')) return `functions/domain/${spec.slice(8)}`;
    if (spec.startsWith('#store/')) return `functions/store/${spec.slice(7)}`;
    if (spec.startsWith('#http-kit/')) return `functions/http-kit/${spec.slice(10)}`;
    if (spec.startsWith('.')) return relative(ROOT, resolve(dirname(file), spec));
    return spec;
  });
}

describe('dependency rules', () => {
  it('keeps the domain pure: it imports only the domain, node built-ins, date-fns, ajv and json-schema-to-ts types', () => {
    const allowed = /^(functions\/domain\/|node:|date-fns|@date-fns\/tz|ajv|json-schema-to-ts$)/;
    const offenders = files(join(ROOT, 'functions/domain')).flatMap((f) =>
      importsOf(f).filter((i) => !allowed.test(i)).map((i) => `${relative(ROOT, f)} -> ${i}`),
    );
    expect(offenders).toEqual([]);
  });

  it('lets lib/ import from functions/ only the data tables, never handler code', () => {
    const tables = ['functions/routes.ts', 'functions/bots.ts', 'functions/store/table-design.ts'];
    const offenders = files(join(ROOT, 'lib')).flatMap((f) =>
      importsOf(f)
        .filter((i) => i.startsWith('functions/') && !tables.includes(i) && !i.startsWith('functions/domain/kernel/principal'))
        .map((i) => `${relative(ROOT, f)} -> ${i}`),
    );
    expect(offenders).toEqual([]);
  });
});
