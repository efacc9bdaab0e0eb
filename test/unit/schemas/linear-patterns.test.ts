import { readFileSync } from 'node:fs';
import { check } from 'recheck';
import { beforeAll, describe, expect, it } from 'vitest';
import { FORMAT_PATTERNS, formats } from '../../../functions/domain/kernel/json-schema-runtime.ts';
import { ISO_PATTERN } from '../../../functions/domain/kernel/time.ts';
import { requestSchemas } from '../../../functions/domain/schemas/request-schemas.ts';

/**
 * No field a client sends can cost more than linear time: every `pattern` of the request schemas (as the generated
 * validators run them) and every regular expression of the formats is linted for backtracking by recheck (its pure
 * JavaScript backend), and the worst inputs we know for each format cost time in proportion to their length (issue 27:
 * a quadratic email check took 19.9 s over one 190,000-character field). That is checked as growth, not as a wall-clock
 * limit: sixteen times the input may cost at most 64 times the time (linear is 16, quadratic 256; caches and the
 * collector make long strings a little dearer), so a loaded machine slows both runs alike and the test holds.
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
/** The worst inputs we know for each format, `n` characters long: runs of what the expression (or the URL parser) loops on. */
const WORST: Record<keyof typeof formats, (n: number) => string[]> = {
  email: (n) => [
    `a@${'.'.repeat(n)}@`,
    `a@${'a.'.repeat(n / 2)}@`,
    `a@${'a.'.repeat(n / 2)}`,
    '@'.repeat(n),
    `${'a'.repeat(n)}@`,
    `a@a${'.a'.repeat(n / 2)} `,
    `\0@\0${'.\0'.repeat(n / 2)}.@..\0`,
  ],
  'date-time': (n) => [
    `2026-01-01T00:00:00.${'1'.repeat(n)}x`,
    `2026-01-01T00:00:00.${'1'.repeat(n)}`,
    '1'.repeat(n),
    `2026-01-01${'T00:00'.repeat(n / 6)}`,
  ],
  date: (n) => [`2026-01-01${'1'.repeat(n)}`, '-'.repeat(n), '1'.repeat(n)],
  uri: (n) => [
    `http://${'a'.repeat(n)} `,
    `a:${'/'.repeat(n)}`,
    `http://[${':'.repeat(n)}`,
    `http://a/${'%'.repeat(n)}`,
    `http://${'a.'.repeat(n / 2)}`,
    `${'a'.repeat(n)}:`,
  ],
};

/** The best of three runs, in ms: one GC pause or a busy neighbour on the machine is not the input's cost. */
function bestOfThree(run: () => void): number {
  let best = Infinity;
  for (let i = 0; i < 3; i++) {
    const start = performance.now();
    run();
    best = Math.min(best, performance.now() - start);
  }
  return best;
}

/** Below this a run's time is the timer's and the machine's noise, not the input's cost. */
const NOISE_MS = 5;

/**
 * How the cost of `check` grows from the input of N/16 characters to the one of N: at most 64 times (linear is 16
 * times, quadratic 256), or the large run within the noise.
 */
function expectLinear(check: (input: string) => unknown, inputOf: (n: number) => string, what: string) {
  const small = bestOfThree(() => check(inputOf(N / 16)));
  const large = bestOfThree(() => check(inputOf(N)));
  expect(large, `${what}: ${JSON.stringify(inputOf(N).slice(0, 24))}…`).toBeLessThanOrEqual(
    Math.max(64 * small, NOISE_MS),
  );
}

describe('the worst inputs of each format', () => {
  it('covers every format', () => {
    expect(Object.keys(WORST).sort()).toEqual(Object.keys(formats).sort());
  });

  it.each(Object.entries(WORST))('answers each worst %s input in time linear in its length', (name, inputsOf) => {
    const { validate } = formats[name as keyof typeof formats];
    inputsOf(N).forEach((_, i) => {
      expectLinear(validate, (n) => inputsOf(n)[i]!, name);
    });
  });

  it('answers each schema pattern on long runs of its own characters in time linear in their length', () => {
    const runs = ['0', 'a', '.', '-', '/', ':', 'P', '1Y', 'T1H', '0611'].flatMap((c) => [
      (n: number) => c.repeat(n / c.length),
      (n: number) => `${c.repeat(n / c.length)}!`,
    ]);
    for (const pattern of SCHEMA_PATTERNS) {
      const regex = new RegExp(pattern, 'u');
      for (const inputOf of runs) expectLinear((input) => regex.test(input), inputOf, pattern);
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
