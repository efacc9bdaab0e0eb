import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

/** The TypeScript files under `dir`, at any depth; `skip` names folders left out (generated code). */
export function tsFiles(dir: string, skip: readonly string[] = []): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return skip.includes(name) ? [] : tsFiles(path, skip);
    return path.endsWith('.ts') ? [path] : [];
  });
}
