import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { expect, it } from 'vitest';
import { openApiDocument } from '../../../functions/openapi/document.ts';

const ROOT = resolve(import.meta.dirname, '../../..');

it("passes the Redocly lint as a consumer runs it, with Redocly's defaults (recommended rules): no error, no warning", () => {
  // A folder of its own, as a consumer's: no configuration of this project, only Redocly's defaults.
  const dir = mkdtempSync(join(tmpdir(), 'agora-openapi-'));
  const file = join(dir, 'openapi.json');
  writeFileSync(file, JSON.stringify(openApiDocument(), null, 2));
  const run = spawnSync(
    join(ROOT, 'node_modules/.bin/redocly'),
    ['lint', file, '--format=stylish', '--max-problems=1000'],
    {
      cwd: dir,
      encoding: 'utf8',
      // Offline and quiet: no telemetry, no update check.
      env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true', NO_COLOR: '1' },
      timeout: 60_000,
    },
  );
  const report = `${run.stdout}\n${run.stderr}`;
  expect(run.status, report).toBe(0);
  // Stylish lines: `1:20  warning  info-license  ...`; a clean run has none and says so.
  expect(report, report).not.toMatch(/^\s*\d+:\d+\s+(error|warning)\s/m);
  expect(report, report).not.toMatch(/You have \d+ warning/);
  expect(report).toMatch(/Your API description is valid/);
}, 90_000);
