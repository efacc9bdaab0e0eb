import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * The order the two workers take the files in: the longest first, so that no long file starts near the end while the
 * other worker has nothing left (vitest's own order, without a results cache as on a fresh `npm ci`, is the largest
 * file first: script-help.test.ts, small and 70 s long, started last and ran alone for 30 s).
 *
 * A file's expected seconds: file-durations.json (the CI runs' per-file seconds, files of 2 s and more,
 * `<project>:<path>`; refresh it from a JSON report, `--reporter=json`, when files grow or shrink), else vitest's
 * results cache (a previous run on this machine; none after `npm ci`), else 0: after the known ones, largest first.
 *
 * Projects stay together, a project's files one after another (a worker of a non-isolated project is kept only for
 * the same project's next file), in PROJECT_ORDER: the integration files first, the longest of the run; the bundled
 * ones after them, so that the Lambdas are built while the integration files run (test/support/bundles-setup.ts);
 * the unit files, short, last, to fill the end. `sequence.groupOrder` (the aws project, after the others) comes first.
 */
const PROJECT_ORDER = ['integration', 'bundled', 'infra', 'unit'];
const KNOWN: Record<string, number> = JSON.parse(
  readFileSync(join(import.meta.dirname, 'file-durations.json'), 'utf8'),
);

export class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const cache = this.ctx.cache;
    const rank = (name: string) => (PROJECT_ORDER.includes(name) ? PROJECT_ORDER.indexOf(name) : PROJECT_ORDER.length);
    const key = (spec: TestSpecification) => `${spec.project.name}:${relative(this.ctx.config.root, spec.moduleId)}`;
    const expected = new Map(
      files.map((spec) => {
        const cached = cache.getFileTestResults(key(spec))?.duration;
        return [spec, KNOWN[key(spec)] ?? (cached !== undefined ? cached / 1000 : 0)];
      }),
    );
    const size = (spec: TestSpecification) => cache.getFileStats(key(spec))?.size ?? 0;
    return [...files].sort(
      (a, b) =>
        a.project.config.sequence.groupOrder - b.project.config.sequence.groupOrder ||
        rank(a.project.name) - rank(b.project.name) ||
        expected.get(b)! - expected.get(a)! ||
        size(b) - size(a),
    );
  }
}
