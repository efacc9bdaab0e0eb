import { readFileSync } from 'node:fs';
import { check } from 'recheck';
import { beforeAll, describe, expect, it } from 'vitest';
import { FORMAT_PATTERNS, formats } from '../../../functions/domain/kernel/json-schema-runtime.ts';
import { ISO_PATTERN } from '../../../functions/domain/kernel/time.ts';
import { requestSchemas } from '../../../functions/domain/schemas/request-schemas.ts';

/**
 * No field a client sends can cost more than linear time: every `pattern` of the request schemas (as the generated
 * validators run them) and every regular expression of the formats is linted for backtracking by recheck (its pure
 * JavaScript backend), and the worst inputs we know for each format are answered within 50 ms (issue 27: a
 * quadratic email check took 19.9 s over one 190,000-character field).
 */
beforeAll(() => {
  process.env.RECHECK_BACKEND = 'pure';
});

/** `pattern` keywords of a schema, at any depth (not the texts of `x-messages`, which are keyed by keyword too). */
function schemaPatterns(node: unknown, out = new Set<string>()): Set<string> {
  if (Array.isArray(node)) for (const child of node) schemaPatterns(child, out);
  else if (node && typeof node === 'object')
    for (const [key, value] of Object.entries(node)) {
      if (key === 'pattern' && typeof value === 'string') out.add(value);
      else if (key !== 'x-messages') schemaPatterns(value, out);
    }
  return out;
}

/** The expressions the generated validators build (`new RegExp("...", "u")`): what actually runs. */
function generatedPatterns(): Set<string> {
  const out = new Set<string>();
  for (const file of ['request-validators.js', 'validators.js']) {
    const code = readFileSync(new URL(`../../../functions/domain/schemas/generated/${file}`, import.meta.url), 'utf8');
    for (const m of code.matchAll(/new RegExp\(("(?:[^"\\]|\\.)*")/g)) out.add(JSON.parse(m[1]!) as string);
  }
  return out;
}

const SCHEMA_PATTERNS = [...new Set([...schemaPatterns(requestSchemas), ...generatedPatterns()])];
const FORMAT_REGEXES: Record<string, RegExp> = { ...FORMAT_PATTERNS, 'date-time': ISO_PATTERN };

/**
 * recheck's automaton checker: a proof from the expression's automaton, the same on every run (its fuzzing checker,
 * which it takes for lookarounds and back-references, depends on timing); an expression it cannot decide is
 * `unknown` here, so write patterns without lookarounds.
 */
async function lint(source: string, flags: string) {
  const result = await check(source, flags, { checker: 'automaton', timeout: 30_000 });
  return {
    status: result.status,
    attack: result.status === 'vulnerable' ? result.attack.pattern : undefined,
    error: result.status === 'unknown' ? result.error : undefined,
  };
}

describe('the patterns and formats a request is checked with', () => {
  it('finds the schemas’ patterns (the walk sees them)', () => {
    expect(SCHEMA_PATTERNS).toContain('^[0-9a-f]{32}$');
    expect(SCHEMA_PATTERNS.length).toBeGreaterThanOrEqual(6);
  });

  it('flags a backtracking pattern (the linter works: the old email check)', async () => {
    expect((await lint('^[^@\\s]+@[^@\\s]+\\.[^@\\s]+$', '')).status).toBe('vulnerable');
  }, 60_000);

  it.each(SCHEMA_PATTERNS)(
    'has no backtracking in the schema pattern %s',
    async (pattern) => {
      expect(await lint(pattern, 'u')).toEqual({ status: 'safe', attack: undefined, error: undefined });
    },
    60_000,
  );

  it.each(Object.entries(FORMAT_REGEXES))(
    'has no backtracking in the %s format',
    async (_, regex) => {
      expect(await lint(regex.source, regex.flags)).toEqual({ status: 'safe', attack: undefined, error: undefined });
    },
    60_000,
  );
});

const N = 190_000;
/** The worst inputs we know for each format: long runs of what the expression (or the URL parser) loops on. */
const WORST: Record<keyof typeof formats, string[]> = {
  email: [
    `a@${'.'.repeat(N)}@`,
    `a@${'a.'.repeat(N / 2)}@`,
    `a@${'a.'.repeat(N / 2)}`,
    '@'.repeat(N),
    `${'a'.repeat(N)}@`,
    `a@a${'.a'.repeat(N / 2)} `,
    `\0@\0${'.\0'.repeat(N / 2)}.@..\0`,
  ],
  'date-time': [
    `2026-01-01T00:00:00.${'1'.repeat(N)}x`,
    `2026-01-01T00:00:00.${'1'.repeat(N)}`,
    '1'.repeat(N),
    `2026-01-01${'T00:00'.repeat(N / 6)}`,
  ],
  date: [`2026-01-01${'1'.repeat(N)}`, '-'.repeat(N), '1'.repeat(N)],
  uri: [
    `http://${'a'.repeat(N)} `,
    `a:${'/'.repeat(N)}`,
    `http://[${':'.repeat(N)}`,
    `http://a/${'%'.repeat(N)}`,
    `http://${'a.'.repeat(N / 2)}`,
    `${'a'.repeat(N)}:`,
  ],
};

/** The best of three runs: one GC pause or a busy neighbour on the machine is not the input's cost. */
function bestOfThree(run: () => void): number {
  let best = Infinity;
  for (let i = 0; i < 3; i++) {
    const start = performance.now();
    run();
    best = Math.min(best, performance.now() - start);
  }
  return best;
}

describe('the worst inputs of each format', () => {
  it('covers every format', () => {
    expect(Object.keys(WORST).sort()).toEqual(Object.keys(formats).sort());
  });

  it.each(Object.entries(WORST))('answers each worst %s input in under 50 ms', (name, inputs) => {
    const { validate } = formats[name as keyof typeof formats];
    for (const input of inputs) {
      const ms = bestOfThree(() => validate(input));
      expect(ms, `${name}: ${JSON.stringify(input.slice(0, 24))}…`).toBeLessThan(50);
    }
  });

  it('answers each schema pattern on long runs of its own characters in under 50 ms', () => {
    const runs = ['0', 'a', '.', '-', '/', ':', 'P', '1Y', 'T1H', '0611'].flatMap((c) => [
      c.repeat(N / c.length),
      `${c.repeat(N / c.length)}!`,
    ]);
    for (const pattern of SCHEMA_PATTERNS) {
      const regex = new RegExp(pattern, 'u');
      for (const input of runs)
        expect(
          bestOfThree(() => regex.test(input)),
          pattern,
        ).toBeLessThan(50);
    }
  });
});

describe('the lease duration pattern', () => {
  // What it replaced: the same language, written with lookarounds the linter cannot decide.
  const BEFORE = /^P(?!$)(\d+Y)?(\d+M)?(\d+W)?(\d+D)?(T(?=\d)(\d+H)?(\d+M)?(\d+(\.\d+)?S)?)?$/u;
  const duration = new RegExp(SCHEMA_PATTERNS.find((p) => p.startsWith('^P'))!, 'u');

  it('accepts ISO 8601 durations with a component and nothing else', () => {
    for (const ok of ['P5Y', 'P1Y6M', 'P2W', 'P10D', 'PT12H', 'PT1.5S', 'P2Y3M10DT12H30M5.5S', 'P1MT1M'])
      expect(duration.test(ok), ok).toBe(true);
    for (const bad of ['P', 'PT', 'P1', 'PT1', 'P1Y1Y', 'P1DT', 'P1S', 'PT1D', 'P1.5Y', 'five years'])
      expect(duration.test(bad), bad).toBe(false);
  });

  it('matches exactly what the pattern with lookarounds matched (every string of its alphabet up to 7 characters)', () => {
    const alphabet = 'PTYMWDHS1.';
    const differ: string[] = [];
    const walk = (text: string, depth: number) => {
      if (duration.test(text) !== BEFORE.test(text)) differ.push(text);
      if (depth > 0) for (const c of alphabet) walk(text + c, depth - 1);
    };
    walk('P', 6);
    expect(differ).toEqual([]);
  });
});
