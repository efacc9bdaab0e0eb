import { appendFileSync } from 'node:fs';
import { join } from 'node:path';
import { threadId } from 'node:worker_threads';
import { afterAll } from 'vitest';
import { installCallObserver } from '../../../functions/store/aws-calls.ts';
import { callsFolder, iamRequests } from './calls.ts';

/**
 * A setup file of the integration projects: every AWS call a handler makes (functions/store/aws-calls.ts), as IAM
 * sees it, attributed to its Lambda, written once per distinct call into this worker's file of the run's folder; the
 * `aws` project (test/aws/iam.test.ts) checks them after the suite. Calls outside a Lambda (a test's own setup) are
 * not the code's and are left out.
 */
const folder = callsFolder();
const KEY = Symbol.for('agora.awsCallRecorder');
const state = globalThis as unknown as Record<symbol, { seen: Set<string>; pending: string[] } | undefined>;
if (folder && !state[KEY]) {
  const recorder = { seen: new Set<string>(), pending: [] as string[] };
  state[KEY] = recorder;
  installCallObserver((call, caller) => {
    if (!caller) return;
    for (const request of iamRequests(call)) {
      const line = JSON.stringify({ caller, ...request });
      if (recorder.seen.has(line)) continue;
      recorder.seen.add(line);
      recorder.pending.push(line);
    }
  });
}
afterAll(() => {
  const recorder = state[KEY];
  if (!folder || !recorder?.pending.length) return;
  appendFileSync(join(folder, `${process.pid}-${threadId}.jsonl`), `${recorder.pending.splice(0).join('\n')}\n`);
});
