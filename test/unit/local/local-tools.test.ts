import { describe, expect, it } from 'vitest';
import { humanLogLine } from '../../../lib/local/log-format.ts';
import { atLeast, javaMajor, nodeProblem } from '../../../lib/local/preflight.ts';

describe("npm start's human log lines (LOG_FORMAT=json keeps the JSON)", () => {
  it('makes a request line short, in Kyiv time, without the noise', () => {
    const json = JSON.stringify({
      level: 'INFO',
      message: 'request',
      timestamp: '2026-11-23T10:04:05.123Z',
      service: 'agora',
      sampling_rate: 0,
      correlation_id: 'c0ffee12-aaaa-bbbb',
      route: 'GET /api/0.1/lots',
      status: 200,
      latencyMs: 65.6,
      caller: 'broker',
      role: 'broker',
    });
    expect(humanLogLine(json)).toBe('12:04:05 200 GET /api/0.1/lots 66ms broker  [c0ffee12]');
  });

  it('makes a bot run one line with its transitions, and keeps other lines readable', () => {
    const bot = {
      level: 'INFO',
      message: 'bot run',
      timestamp: '2026-07-01T09:00:00Z',
      bot: 'convoy',
      due: 2,
      changed: 1,
      failed: 0,
      transitions: { claim: 1 },
    };
    expect(humanLogLine(JSON.stringify(bot))).toBe('12:00:00 bot convoy: due 2, changed 1 (claim 1)');
    const error = {
      level: 'ERROR',
      message: 'bot item failed',
      timestamp: '2026-07-01T09:00:00Z',
      sampling_rate: 0,
      item: 'x',
    };
    expect(humanLogLine(JSON.stringify(error))).toBe('12:00:00 ERROR bot item failed item=x');
    expect(humanLogLine('plain text')).toBe('plain text');
  });
});

describe("npm start's checks", () => {
  it('reads the Java major version of old and new version strings', () => {
    expect(javaMajor('openjdk version "17.0.15" 2025-04-15')).toBe(17);
    expect(javaMajor('java version "1.8.0_392"')).toBe(8);
    expect(javaMajor('openjdk version "21" 2023-09-19')).toBe(21);
    expect(javaMajor('nothing')).toBeUndefined();
  });

  it('says in one line when Node is older than engines', () => {
    expect(atLeast('20.19.0', '20.19')).toBe(true);
    expect(atLeast('20.18.3', '20.19')).toBe(false);
    expect(nodeProblem('>=20.19', '22.1.0')).toBeUndefined();
    expect(nodeProblem('>=24', '20.20.2')).toBe(
      'Node 20.20.2 is too old: Agora needs Node >=24 (package.json engines). On Linux, npm ci installs it and npm scripts use it; elsewhere, nvm use reads .nvmrc.',
    );
  });
});
