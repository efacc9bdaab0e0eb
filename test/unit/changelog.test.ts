import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CURRENT_MODEL, MIGRATION_STEPS } from '../../functions/store/migration-steps.ts';

describe('CHANGELOG.md', () => {
  it('names the data model of the newest release and the migrations that lead to it', () => {
    const changelog = readFileSync('CHANGELOG.md', 'utf8');
    const newest = changelog.slice(
      changelog.indexOf('\n## ['),
      changelog.indexOf('\n### ', changelog.indexOf('\n## [')),
    );
    const line = /Data model: (\d+) \(migrations (.*)\)\./.exec(newest);
    expect(line, 'a "Data model: N (migrations ...)." line under the newest release').not.toBeNull();
    expect(Number(line![1])).toBe(CURRENT_MODEL);
    for (const step of MIGRATION_STEPS) expect(line![2]).toContain(`${step.version} \`${step.name}\``);
  });
});
