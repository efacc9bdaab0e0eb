import { afterAll, beforeAll, vi } from 'vitest';
import { resetConfig } from '../../functions/platform/config.ts';
import { rootLogger } from '../../functions/runtime/observability.ts';

/** Everything written to stdout from now (JSON log lines and EMF metrics) until `stop`, one parsed object a line. */
export function captureStdout() {
  const chunks: string[] = [];
  const spy = vi.spyOn(process.stdout, 'write').mockImplementation((chunk: any) => {
    chunks.push(String(chunk));
    return true;
  });
  const raw = () => chunks.join('');
  const lines = (): Record<string, any>[] =>
    raw()
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l));
  return { raw, lines, stop: () => spy.mockRestore() };
}

/** Every log line and every metric (AGORA_METRICS) written, for this file's tests. */
export function useLogsAndMetrics(): void {
  beforeAll(() => {
    rootLogger.setLogLevel('DEBUG');
    process.env.AGORA_METRICS = '1';
    resetConfig();
  });
  afterAll(() => {
    rootLogger.setLogLevel('WARN');
    delete process.env.AGORA_METRICS;
    resetConfig();
  });
}
