import { describe, expect, it } from 'vitest';
import { callsFolder, readRecordings } from '../support/aws/calls.ts';
import { IamModel, synthesizedTemplates } from '../support/aws/iam-check.ts';

/**
 * Call parity (IAM), run after the integration projects (vitest.config.ts `aws`, groupOrder 1): every AWS call the
 * suite recorded (test/support/aws/record-calls.ts) is allowed by its Lambda's role in the templates `cdk synth`
 * writes, and every grant those roles hold is used by a recorded call or justified beside its statement.
 */
const folder = callsFolder();
const calls = folder ? readRecordings(folder) : [];
const { reports, unknown } = calls.length
  ? await new IamModel(synthesizedTemplates()).check(calls)
  : { reports: [], unknown: [] };

describe('every AWS call of the suite is allowed by its function role', () => {
  it('has recordings (the integration projects ran first, in this run)', () => {
    expect(
      calls.length,
      `no recorded AWS calls in ${folder}: run the integration project in the same run`,
    ).toBeGreaterThan(0);
  });
  it('attributes every call to a function of the templates', () => {
    expect(unknown.map((c) => `${c.caller}: ${c.action}`)).toEqual([]);
  });
  for (const report of reports)
    it(`${report.fn} (${report.caller})`, () => {
      const denied = report.verdicts.filter((v) => !v.allowed);
      expect(
        denied.map(
          (v) =>
            `${report.fn} may not ${v.call.action} on ${v.arn}${v.call.context ? ` ${JSON.stringify(v.call.context)}` : ''}: ${v.why}`,
        ),
      ).toEqual([]);
    });
  it('keeps no grant that no call uses, unless the stack justifies it beside the statement', () => {
    const unjustified = new Set(
      reports.flatMap((r) =>
        r.unused.filter((g) => !g.justified).map((g) => `${g.role}: ${g.action} on ${g.resource}`),
      ),
    );
    expect([...unjustified].sort()).toEqual([]);
  });
});
